/** Returns a promtool path: PAGEWATCH_PROMTOOL_PATH, PATH, the cache, or one fetched now. */
export function ensurePromtool(): string;
