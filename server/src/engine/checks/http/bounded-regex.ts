import vm from 'node:vm';

/**
 * How long one regular expression may run on a body. JavaScript regexes backtrack, and a
 * pattern like `^(a+)+$` on a long near-match runs for ages on the event loop every check
 * shares; past this the match is abandoned (and the loop only ever blocked this long).
 */
export const REGEX_TIME_LIMIT_MS = 100;

export type RegexOutcome =
  { kind: 'match'; index: number; text: string } | { kind: 'no_match' } | { kind: 'timeout' };

// One context for the process: creating one per call costs about a millisecond. Only strings
// and numbers cross into it and out of it, so nothing leaks between calls.
const context = vm.createContext(Object.create(null) as object);
const script = new vm.Script(
  '(() => { const m = new RegExp(p, f).exec(t); return m === null ? null : [m.index, m[0]]; })()',
);

/**
 * Runs `pattern` once over `text`, stopped after `timeoutMs`: vm's watchdog terminates the
 * script, regex included, and the error comes back here instead of a stuck process.
 */
export function boundedExec(
  pattern: string,
  flags: string,
  text: string,
  timeoutMs = REGEX_TIME_LIMIT_MS,
): RegexOutcome {
  const scope = context as { p?: string; f?: string; t?: string };
  scope.p = pattern;
  scope.f = flags;
  scope.t = text;
  try {
    const found = script.runInContext(context, { timeout: timeoutMs }) as [number, string] | null;
    return found === null
      ? { kind: 'no_match' }
      : { kind: 'match', index: found[0], text: found[1] };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      return { kind: 'timeout' };
    }
    throw err;
  } finally {
    scope.t = undefined;
  }
}
