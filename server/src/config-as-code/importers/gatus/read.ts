import { LineCounter, parseDocument } from 'yaml';
import { AppError } from '../../../lib/errors.js';

/** Gatus's top-level keys (config/config.go); any other key is refused as a typo. */
const knownTopLevel = new Set([
  'debug',
  'metrics',
  'storage',
  'alerting',
  'endpoints',
  'external-endpoints',
  'suites',
  'security',
  'disable-monitoring-lock',
  'skip-invalid-config-update',
  'web',
  'ui',
  'maintenance',
  'remote',
  'connectivity',
  'concurrency',
  'announcements',
  'tunneling',
]);

/** Top-level keys whose settings Pagewatch has no place for; read, then left out. */
export const unusedTopLevel = [...knownTopLevel].filter(
  (k) => !['alerting', 'endpoints', 'external-endpoints'].includes(k),
);

export type GatusMap = Record<string, unknown>;

export interface GatusConfig {
  endpoints: GatusMap[];
  externalEndpoints: GatusMap[];
  alerting: GatusMap;
  /** Known top-level keys that were present but carry nothing Pagewatch imports. */
  ignored: string[];
}

/** A `validation_failed` problem about the Gatus file, with a stable code. */
export function gatusProblem(code: string, message: string): AppError {
  return new AppError('validation_failed', message, [
    { path: 'file', code: `gatus_${code}`, message },
  ]);
}

const REFERENCE = /\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * Gatus runs `os.ExpandEnv` over the whole file: `$VAR` and `${VAR}` are replaced, `$$` is a
 * literal `$`. Unlike Gatus (which puts an empty string), a variable that is not set is an
 * error naming it and its line: an empty URL or token would only fail later, less clearly.
 */
export function substituteEnv(text: string, env: Record<string, string | undefined>): string {
  const missing: string[] = [];
  const out = text.replace(REFERENCE, (whole, dollar: string, braced?: string, bare?: string) => {
    if (dollar === '$') return '$';
    const name = (braced ?? bare)!;
    const value = env[name];
    if (value === undefined) missing.push(name);
    return value ?? whole;
  });
  if (missing.length > 0) {
    const name = missing[0]!;
    const offset = text.search(new RegExp(`\\$(\\{${name}\\}|${name}(?![A-Za-z0-9_]))`));
    const line = text.slice(0, Math.max(0, offset)).split('\n').length;
    const more = new Set(missing).size - 1;
    const others = more > 0 ? ` (and ${more} more)` : '';
    throw gatusProblem(
      'missing_env',
      `line ${line}: the environment variable ${name} is not set${others}; set it or write $$ for a literal $`,
    );
  }
  return out;
}

/** The first `${NAME}` or `$NAME` reference left in a text, with its line, or null. */
export function firstEnvReference(text: string): { name: string; line: number } | null {
  for (const m of text.matchAll(REFERENCE)) {
    if (m[1] === '$') continue;
    return { name: (m[2] ?? m[3])!, line: text.slice(0, m.index).split('\n').length };
  }
  return null;
}

/** Parses YAML text into a plain value; syntax errors name their line and column. */
export function parseYaml(text: string, file = 'the file'): unknown {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lines.linePos(error.pos[0]);
    const message = error.message.split('\n')[0]!;
    throw gatusProblem(
      'bad_yaml',
      `${file} is not valid YAML: line ${line}, column ${col}: ${message}`,
    );
  }
  return doc.toJS({ maxAliasCount: 100 });
}

const isMap = (v: unknown): v is GatusMap =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function listOf(root: GatusMap, key: string): GatusMap[] {
  const v = root[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every(isMap)) {
    throw gatusProblem('bad_shape', `"${key}" must be a list of entries, each a map of settings`);
  }
  return v;
}

/** Reads a Gatus configuration's text (already substituted) into its parts Pagewatch uses. */
export function readGatus(text: string): GatusConfig {
  const root = parseYaml(text);
  if (root === null || root === undefined) {
    throw gatusProblem('empty', 'The Gatus configuration is empty: it has no endpoints');
  }
  if (!isMap(root)) {
    throw gatusProblem('bad_shape', 'A Gatus configuration is a map with an "endpoints" list');
  }
  const unknown = Object.keys(root).filter((k) => !knownTopLevel.has(k));
  if (unknown.length > 0) {
    throw gatusProblem(
      'unknown_key',
      `Unknown top-level key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}: Gatus knows ${[...knownTopLevel].join(', ')}`,
    );
  }
  const alerting = root.alerting ?? {};
  if (!isMap(alerting)) throw gatusProblem('bad_shape', '"alerting" must be a map of providers');
  const endpoints = listOf(root, 'endpoints');
  const externalEndpoints = listOf(root, 'external-endpoints');
  if (endpoints.length + externalEndpoints.length === 0) {
    throw gatusProblem('empty', 'The Gatus configuration has no endpoints or external-endpoints');
  }
  const ignored = unusedTopLevel.filter((k) => k in root);
  return { endpoints, externalEndpoints, alerting, ignored };
}

/**
 * Merges the files of a configuration folder as Gatus does (deep merge in path order): maps
 * merge key by key, lists are concatenated, and a setting written twice with different values
 * is an error naming both files.
 */
export function mergeGatusFiles(files: { name: string; value: unknown }[]): unknown {
  const from = new Map<string, string>();
  const merge = (a: unknown, b: unknown, at: string, file: string): unknown => {
    if (a === undefined) return b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    if (isMap(a) && isMap(b)) {
      const out: GatusMap = { ...a };
      for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v, `${at}${k}.`, file);
      return out;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return a;
    const key = at.slice(0, -1);
    throw gatusProblem(
      'merge_conflict',
      `"${key}" is set differently in ${from.get(key) ?? 'an earlier file'} and ${file}`,
    );
  };
  let merged: unknown = undefined;
  for (const f of files) {
    if (f.value === null || f.value === undefined) continue;
    const note = (v: unknown, at: string): void => {
      if (isMap(v)) for (const [k, x] of Object.entries(v)) note(x, `${at}${k}.`);
      else if (!from.has(at.slice(0, -1))) from.set(at.slice(0, -1), f.name);
    };
    merged = merge(merged, f.value, '', f.name);
    note(f.value, '');
  }
  return merged ?? {};
}
