/** Longest key (ConfigKey): room is left for a `-n` suffix when names repeat. */
const KEY_MAX = 63;

/** A key made from a name: lower-case ASCII letters and digits joined by hyphens. */
export function keyFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, KEY_MAX - 4)
    .replace(/-+$/, '');
  return base === '' ? 'item' : base;
}

/** `base`, or `base-2`, `base-3`… whichever `taken` lacks; the result is added to `taken`. */
export function uniqueKey(base: string, taken: Set<string>): string {
  let key = base;
  for (let n = 2; taken.has(key); n++) {
    const suffix = `-${n}`;
    key = base.slice(0, KEY_MAX - suffix.length).replace(/-+$/, '') + suffix;
  }
  taken.add(key);
  return key;
}
