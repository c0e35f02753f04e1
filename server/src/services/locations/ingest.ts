import type { ProbeCheckResult, ProbeResultAnswer, ProbeResultBatch } from '@pagewatch/contract';
import type { CheckRun } from '../../domain/check-run.js';
import { arrivedLate, checkRound } from '../../domain/locations.js';
import { AppError, unavailable } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';
import type { ProbeCaller } from './probe-auth.js';

/** One location's result of one round, as the quorum's ingest takes it (ADR 58). */
export interface LocationResultInput {
  monitorId: number;
  roundAt: string;
  startedAt: string;
  result: CheckRun;
}

/** Records a location's results once per (monitor, location, round); h16q's ingest. */
export type LocationResultRecorder = (
  locationId: string,
  items: readonly LocationResultInput[],
  options: { replayed: boolean },
) => Promise<{ accepted: number; duplicates: number; refused: { index: number; code: string }[] }>;

function toRun(r: ProbeCheckResult): CheckRun {
  const { browser, ...rest } = r;
  const run: CheckRun = { ...rest };
  if (browser) {
    run.browser = {
      measurements: browser.measurements,
      screenshot: browser.screenshotBase64 ? Buffer.from(browser.screenshotBase64, 'base64') : null,
    };
  }
  return run;
}

/**
 * A probe's batch: refused whole (nothing recorded) when any item names a monitor not checked
 * at the probe's location or a time off the monitor's round grid; otherwise recorded, items
 * that came too late to be live as history only.
 */
export async function ingestProbeResults(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  record: LocationResultRecorder | null | undefined,
  caller: ProbeCaller,
  batch: ProbeResultBatch,
): Promise<ProbeResultAnswer> {
  const now = deps.clock.now();
  const assigned = new Map(
    (await deps.repos.locations.monitorsAt(caller.locationId)).map((m) => [m.id, m]),
  );
  const refused: { index: number; code: string }[] = [];
  const live: LocationResultInput[] = [];
  const late: LocationResultInput[] = [];
  batch.items.forEach((item, index) => {
    const m = assigned.get(item.monitorId);
    if (!m) return void refused.push({ index, code: 'not_assigned' });
    const round = checkRound(m.id, m.intervalS * 1000, Date.parse(item.roundAt), now);
    if (round) return void refused.push({ index, code: round });
    const input = { ...item, result: toRun(item.result) };
    const tooLate = arrivedLate(
      Date.parse(item.roundAt),
      m.intervalS * 1000,
      m.timeoutS * 1000,
      now,
    );
    (batch.replayed || tooLate ? late : live).push(input);
  });
  if (refused.length > 0) {
    throw new AppError(
      'validation_failed',
      `Nothing recorded: ${refused.length} of ${batch.items.length} results are refused (not_assigned: the monitor is not checked at this location; round_off_grid / round_in_future: the time is not one of the monitor's rounds)`,
      refused.map((r) => ({ path: `items.${r.index}`, message: r.code, code: r.code })),
    );
  }
  if (!record) throw unavailable('This server does not record location results yet');
  const a = live.length > 0 ? await record(caller.locationId, live, { replayed: false }) : null;
  const b = late.length > 0 ? await record(caller.locationId, late, { replayed: true }) : null;
  return {
    serverTime: deps.clock.now(),
    accepted: (a?.accepted ?? 0) + (b?.accepted ?? 0),
    duplicates: (a?.duplicates ?? 0) + (b?.duplicates ?? 0),
    late: batch.replayed ? 0 : late.length,
    refused: [...(a?.refused ?? []), ...(b?.refused ?? [])],
  };
}
