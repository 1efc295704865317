export * from './apm.dto';
export * from './sdk.dto';
export * from './keyless';
