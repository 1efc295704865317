export * from './billing-validators';
export * from './invoice.dto';
export * from './meter.dto';
export * from './plan.dto';
export * from './subscription.dto';
export * from './recovery-policy.dto';
export * from './recovery-report.dto';
