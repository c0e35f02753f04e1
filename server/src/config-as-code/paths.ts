/** A place in a document: property names and list indexes, as zod reports them. */
export type DocPath = readonly (string | number)[];

/** `monitors.3.auth.token`: how paths are printed and sent as field errors. */
export const showPath = (path: DocPath): string => path.map(String).join('.');

/** The value at `path`, or undefined. */
export function getAt(root: unknown, path: DocPath): unknown {
  let at: unknown = root;
  for (const step of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

/** Sets (or with undefined removes) the value at `path` in place; the parents must exist. */
export function setAt(root: unknown, path: DocPath, value: unknown): void {
  const parent = getAt(root, path.slice(0, -1));
  if (parent === null || typeof parent !== 'object') return;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete (parent as Record<string | number, unknown>)[last];
  else (parent as Record<string | number, unknown>)[last] = value;
}

/** A problem found in a document; warnings do not stop an apply. */
export interface ConfigProblem {
  path: DocPath;
  message: string;
  severity: 'error' | 'warning';
  /** Another place the problem is about (the first use of a repeated key). */
  related?: DocPath;
}
