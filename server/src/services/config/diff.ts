import type { ConfigPropertyChange } from '@pagewatch/contract';
import { getAt, setAt, showPath, type DocPath } from '../../config-as-code/paths.js';
import { secretSlots } from '../../config-as-code/secrets.js';
import { canonical } from './compare.js';

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Lists of objects (headers, sections) are compared item by item; other lists as a whole. */
const itemwise = (a: unknown, b: unknown): a is unknown[] =>
  Array.isArray(a) && Array.isArray(b) && [...a, ...b].some((v) => isObject(v));

function walk(before: unknown, after: unknown, path: DocPath, out: ConfigPropertyChange[]): void {
  if (canonical(before) === canonical(after)) return;
  if (isObject(before) && isObject(after)) {
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const name of names) walk(before[name], after[name], [...path, name], out);
    return;
  }
  if (itemwise(before, after)) {
    const b = before;
    const a = after as unknown[];
    for (let i = 0; i < Math.max(b.length, a.length); i++) walk(b[i], a[i], [...path, i], out);
    return;
  }
  out.push({
    path: showPath(path),
    ...(before === undefined ? {} : { before }),
    ...(after === undefined ? {} : { after }),
  });
}

/**
 * Secret slots compared and taken out of both sides, so values never reach the report. A slot
 * the files leave empty keeps the stored secret (as the apply does).
 */
function secretChanges(
  kind: 'monitors' | 'channels',
  before: Loose,
  after: Loose,
  keepEmpty: boolean,
): ConfigPropertyChange[] {
  const paths = new Map<string, DocPath>();
  for (const slot of [...secretSlots(kind, before), ...secretSlots(kind, after)])
    paths.set(showPath(slot.path), slot.path);
  const out: ConfigPropertyChange[] = [];
  for (const [shown, path] of [...paths].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const stored = getAt(before, path) || undefined;
    let wanted = getAt(after, path) || undefined;
    if (wanted === undefined && keepEmpty) wanted = stored;
    if (stored !== undefined || wanted !== undefined)
      out.push({ path: shown, secret: stored === wanted ? 'unchanged' : 'changed' });
    setAt(before, path, undefined);
    setAt(after, path, undefined);
  }
  return out;
}

/**
 * The properties that differ between two entries of a kind, `before` → `after`, secrets as
 * changed/unchanged only. `keepEmpty`: an empty secret or channel list in `after` keeps
 * `before`'s (how an apply reads the files).
 */
export function propertyChanges(
  kind: string,
  beforeEntry: unknown,
  afterEntry: unknown,
  keepEmpty: boolean,
): ConfigPropertyChange[] {
  const before = structuredClone(beforeEntry) as Loose;
  const after = structuredClone(afterEntry) as Loose;
  const secrets =
    kind === 'monitors' || kind === 'channels' ? secretChanges(kind, before, after, keepEmpty) : [];
  if (kind === 'monitors' && keepEmpty && after.channels === undefined)
    after.channels = before.channels;
  if (kind === 'monitors' && Array.isArray(after.channels))
    after.channels = [...(after.channels as string[])].sort();
  const scope = after.scope as { monitors?: string[] } | undefined;
  if (kind === 'maintenance' && Array.isArray(scope?.monitors))
    after.scope = { ...scope, monitors: [...scope.monitors].sort() };
  const out: ConfigPropertyChange[] = [];
  walk(before, after, [], out);
  return [...out, ...secrets];
}
