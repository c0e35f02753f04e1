/** Lower-case letters, digits and single hyphens: a name as part of a config key. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Keys from Gatus's names (`gatus-<group>-<name>`), so a second import of the same file finds
 * what the first made. Cut to fit 63 characters; a repeat gets `-2`, `-3`… in file order.
 */
export class GatusKeys {
  private readonly taken = new Set<string>();

  next(group: string, name: string, suffixRoom = 0): string {
    const parts = ['gatus', slug(group), slug(name)].filter(Boolean);
    const base = parts
      .join('-')
      .slice(0, 63 - suffixRoom - 3)
      .replace(/-+$/, '');
    let key = base;
    for (let n = 2; this.taken.has(key); n++) key = `${base}-${n}`;
    this.taken.add(key);
    return key;
  }
}

/** A YAML scalar as text; maps and lists (a mistake in the file) as JSON, never `[object Object]`. */
export function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return `${v}`;
  return JSON.stringify(v) ?? '';
}
