export * from './window.js';
