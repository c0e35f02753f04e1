import { coverageLost, coverageMessage } from '../domain/quorum/coverage.js';
import type { ServiceDeps } from '../services/deps.js';

type SweepDeps = Pick<ServiceDeps, 'repos' | 'clock' | 'hub' | 'maintenance'>;

/**
 * One pass of the coverage sweep (issue 16 item 4, ADR 73): a monitor decided by its locations
 * whose locations all went quiet gets no result to decide its round, so it would keep its last
 * status for as long as they are away. The pass turns each such monitor UNKNOWN for the round
 * running (never DOWN), with a flip naming the silent locations. One query when nothing is
 * amiss; the monitors it finds are read and decided one by one. Returns how many it marked.
 */
export async function sweepCoverage(deps: SweepDeps): Promise<number> {
  const now = deps.clock.now();
  const ids = await deps.repos.coverage.candidates(now);
  if (ids.length === 0) return 0;
  const [subjects, locations] = await Promise.all([
    deps.repos.locationResults.subjects(ids),
    deps.repos.locations.list(),
  ]);
  const names = new Map(locations.map((l) => [l.id, l.name]));
  let marked = 0;
  for (const m of subjects.values()) {
    const loss = coverageLost(m, await deps.repos.locationResults.verdicts(m.id), now);
    if (!loss) continue;
    const said = loss.missing.map((id) => names.get(id) ?? id);
    const message = coverageMessage(said, loss.fresh, loss.k);
    const write = { monitorId: m.id, at: now, from: m.status, roundDue: loss.roundDue, message };
    if (!(await deps.repos.coverage.markUnknown(write))) continue;
    marked += 1;
    // As for a location's decision: a flip inside a maintenance window is history, not news.
    if (deps.maintenance?.inMaintenance(m.id, now)) continue;
    deps.hub.publish({
      kind: 'status',
      monitorId: m.id,
      from: m.status,
      to: 'unknown',
      at: new Date(now).toISOString(),
      errorCode: null,
      message,
    });
  }
  return marked;
}
