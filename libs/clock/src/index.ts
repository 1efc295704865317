export * from './clock';
export * from './iso-time';
export * from './ids';
export * from './sandbox-clock-copy';
export * from './report-range';
