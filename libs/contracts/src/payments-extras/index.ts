export * from './apm.dto';
export * from './sdk.dto';
export * from './threeds.dto';
export * from './keyless';
