export { runBrowserCheck, type BrowserCheckSpec, type BrowserEngine } from './run.js';
export { BrowserPool, BrowserUnavailable, findChromium, type BrowserPoolOptions } from './pool.js';
export { ownOriginGuard } from './own-origin.js';
