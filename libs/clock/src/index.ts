export * from './clock';
export * from './iso-time';
export * from './ids';
export * from './sandbox-clock-copy.migration';
export * from './sandbox-clock-copy.repository';
export * from './report-range';
