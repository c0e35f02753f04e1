/**
 * The JSON path subset HTTP assertions accept, shared so the form rejects what the check
 * cannot evaluate:
 *
 * - `$` is the whole document;
 * - `.name` selects a member (letters, digits, `_`, `$`, `-`; not starting with a digit or `-`);
 * - `['any key']` or `["any key"]` selects a member by any name (`\\` escapes a quote or `\\`);
 * - `[0]` selects an array element (no negative indexes);
 * - `[*]` or `.*` selects every element of an array or every member value of an object.
 *
 * e.g. `$.data.ok`, `$.items[0].name`, `$['key with space']`, `$.items[*].id`.
 * Filters, slices and recursive descent (`..`) are not supported.
 */
export type JsonPathSegment =
  { kind: 'member'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };

const NAME = /^[A-Za-z_$][\w$-]*/;

function quoted(text: string, at: number): { name: string; end: number } | null {
  const quote = text[at];
  let name = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) return null;
      name += next;
      i++;
    } else if (c === quote) {
      return text[i + 1] === ']' ? { name, end: i + 2 } : null;
    } else {
      name += c;
    }
  }
  return null;
}

/** The segments of a path; null when it is not in the supported subset. */
export function parseJsonPath(text: string): JsonPathSegment[] | null {
  if (!text.startsWith('$')) return null;
  const segments: JsonPathSegment[] = [];
  let i = 1;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('.*')) {
      segments.push({ kind: 'wildcard' });
      i += 2;
    } else if (rest.startsWith('.')) {
      const name = NAME.exec(rest.slice(1));
      if (name === null) return null;
      segments.push({ kind: 'member', name: name[0] });
      i += 1 + name[0].length;
    } else if (rest.startsWith('[*]')) {
      segments.push({ kind: 'wildcard' });
      i += 3;
    } else if (rest.startsWith("['") || rest.startsWith('["')) {
      const found = quoted(text, i + 1);
      if (found === null) return null;
      segments.push({ kind: 'member', name: found.name });
      i = found.end;
    } else {
      const index = /^\[(0|[1-9]\d{0,8})\]/.exec(rest);
      if (index === null) return null;
      segments.push({ kind: 'index', index: Number(index[1]) });
      i += index[0].length;
    }
  }
  return segments;
}

/** Every value the path selects in `doc` (several only through a wildcard); [] when none. */
export function selectJsonPath(doc: unknown, segments: readonly JsonPathSegment[]): unknown[] {
  let current: unknown[] = [doc];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const value of current) {
      if (segment.kind === 'wildcard') {
        if (Array.isArray(value)) next.push(...(value as unknown[]));
        else if (value !== null && typeof value === 'object') next.push(...Object.values(value));
      } else if (segment.kind === 'index') {
        if (Array.isArray(value) && segment.index < value.length) next.push(value[segment.index]);
      } else if (
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.hasOwn(value, segment.name)
      ) {
        next.push((value as Record<string, unknown>)[segment.name]);
      }
    }
    current = next;
  }
  return current;
}
