import type { CheckRun } from '../domain/check-run.js';

/**
 * A failed check while Pagewatch itself is offline (every canary unreachable) says nothing
 * about its target: it is recorded as unknown (`connectivity_unknown`, ADR 41), keeping the
 * check's own message. Passing checks, and every check without a guard, are untouched.
 */
export async function unknownWhenOffline(
  run: CheckRun,
  guard: { offline(): Promise<boolean> } | undefined,
): Promise<CheckRun> {
  if (!guard || run.outcome === 'up') return run;
  if (!(await guard.offline())) return run;
  const said = run.errorMessage ?? run.errorCode ?? 'the check failed';
  return {
    ...run,
    errorCode: 'connectivity_unknown',
    errorMessage: `Unknown: no canary target was reachable either (${said})`,
  };
}
