import type { CheckOutcome } from '@pagewatch/contract';
import type { Repositories } from '../../src/db/repositories/index.js';
import type { ResultWrite } from '../../src/db/repositories/results.js';
import { applyOutcome, initialState, type MonitorState } from '../../src/domain/monitor-state.js';
import { checkRun, downRun } from './factories.js';

/**
 * Feeds check outcomes for one monitor through the status machine and the result writer, as
 * the scheduler does, one minute apart from `start`.
 */
export function resultDriver(
  repos: Repositories,
  monitorId: number,
  retries: number,
  start: number,
) {
  let state: MonitorState = initialState;
  let at = start;
  function next(outcome: CheckOutcome, o: { maintenance?: boolean } = {}): ResultWrite {
    const run = outcome === 'down' ? downRun() : checkRun({ outcome });
    const t = applyOutcome(state, outcome, retries, {
      at,
      code: run.errorCode,
      message: run.errorMessage,
    });
    state = t.next;
    const w: ResultWrite = {
      monitorId,
      at,
      run,
      status: t.next.status,
      failures: t.next.failures,
      recent: [],
      flip: t.flip,
      firstFailure: t.next.firstFailure ?? null,
      maintenance: o.maintenance ?? false,
    };
    at += 60_000;
    return w;
  }
  return {
    next,
    /** Writes each outcome in its own batch. */
    async run(...outcomes: CheckOutcome[]) {
      for (const o of outcomes) await repos.results.writeBatch([next(o)]);
    },
    async inMaintenance(...outcomes: CheckOutcome[]) {
      for (const o of outcomes) await repos.results.writeBatch([next(o, { maintenance: true })]);
    },
  };
}
