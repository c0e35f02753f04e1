import type { CoverageNotice } from '@pagewatch/contract';
import { missingLocations, summariseCoverage } from '../../domain/quorum/coverage.js';
import type { ServiceDeps } from '../deps.js';

/**
 * The one coverage notice for admins (ADR 73), worked out when asked: the unknown monitors
 * decided by locations, each with the locations that have no fresh result for it. Two reads
 * (the unknown monitors with their verdicts' times, the locations' names); nothing stored, so
 * it clears itself the moment a location's result decides those monitors again.
 */
export async function coverageNotice(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
): Promise<CoverageNotice> {
  const now = deps.clock.now();
  const [unknown, locations] = await Promise.all([
    deps.repos.coverage.unknownMonitors(),
    deps.repos.locations.list(),
  ]);
  const names = new Map(locations.map((l) => [l.id, l.name]));
  const summary = summariseCoverage(
    unknown.map((m) => ({
      since: m.since,
      missing: missingLocations(
        m.verdicts.map((v) => v.locationId),
        m.verdicts.flatMap((v) =>
          v.checkedAt === null
            ? []
            : [{ locationId: v.locationId, outcome: 'up' as const, checkedAt: v.checkedAt }],
        ),
        now,
        m.interval,
      ),
    })),
    (id) => names.get(id) ?? id,
  );
  return {
    ...summary,
    since: summary.since === null ? null : new Date(summary.since).toISOString(),
  };
}
