/** The one availability computation (ADR 54): API stats, dashboard, status pages, reports, SLOs. */
export * from './compute.js';
export * from './counts.js';
export * from './incidents.js';
export * from './intervals.js';
export * from './periods.js';
export * from './maintenance.js';
