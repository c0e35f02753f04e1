export * from './schedule.js';
export * from './ical.js';
