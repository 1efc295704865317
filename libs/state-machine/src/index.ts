export * from './illegal-transition';
export * from './mermaid';
export * from './state-machine';
