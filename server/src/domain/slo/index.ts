export * from './budget.js';
export * from './burn-rules.js';
export * from './status.js';
export * from './window.js';
export * from './counters.js';
