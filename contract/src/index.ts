export * from './errors.js';
export * from './checks.js';
export * from './stats.js';
export * from './status-codes.js';
export * from './monitors.js';
export * from './events.js';
export * from './auth.js';
export * from './common-passwords.js';
