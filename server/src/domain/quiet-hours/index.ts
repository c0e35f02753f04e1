export * from './window.js';
export * from './channel-route.js';
