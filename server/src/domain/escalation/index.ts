export * from './policy.js';
export * from './targets.js';
