import type {
  LocationChoices,
  LocationFigures,
  LocationLatency,
  MonitorLocations,
} from '@pagewatch/contract';
import { LOCAL_LOCATION_ID } from '@pagewatch/contract';
import { probeOnline } from '../../domain/locations.js';
import { decideQuorum, freshForMs } from '../../domain/quorum/verdict.js';
import { uptimePercent } from '../../domain/percentiles.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Every location a monitor may be checked from (the monitor form's choices) and whether it
 * reports, as Settings → Locations says it to admins: not offline and a probe heard from.
 */
export async function locationChoices(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
): Promise<LocationChoices> {
  const now = deps.clock.now();
  const [choices, locations, probes] = await Promise.all([
    deps.repos.monitorLocations.choices(),
    deps.repos.locations.list(),
    deps.repos.locations.probes(),
  ]);
  const offline = new Set(locations.filter((l) => l.offlineSince !== null).map((l) => l.id));
  const heard = new Set(
    probes.filter((p) => probeOnline(p.lastHeartbeatAt, now)).map((p) => p.locationId),
  );
  return {
    items: choices.map((c) => ({
      ...c,
      online: c.id === LOCAL_LOCATION_ID ? null : !offline.has(c.id) && heard.has(c.id),
    })),
  };
}

/**
 * A monitor's locations with each one's live verdict, latency and 24 h uptime, and what the
 * quorum makes of them now (ADR 58). A monitor of `local` alone shows `local`.
 */
export async function monitorLocations(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  monitorId: number,
): Promise<MonitorLocations> {
  const repo = deps.repos.monitorLocations;
  const chosen = await repo.of(monitorId);
  const m = (await deps.repos.locationResults.subjects([monitorId])).get(monitorId);
  if (!chosen || !m) throw notFound('Monitor');
  const now = deps.clock.now();
  const [choices, verdicts, counts] = await Promise.all([
    repo.choices(),
    deps.repos.locationResults.verdicts(monitorId),
    repo.counts(monitorId, now - DAY_MS),
  ]);
  const freshMs = freshForMs(m.interval);
  const names = new Map(choices.map((c) => [c.id, c.name]));
  const figures = m.locations.map((id): LocationFigures => {
    const v = verdicts.find((x) => x.locationId === id);
    const c = counts.find((x) => x.locationId === id);
    return {
      id,
      name: names.get(id) ?? id,
      status: !v ? 'none' : now - v.checkedAt > freshMs ? 'stale' : v.outcome,
      latencyMs: v?.latencyMs ?? null,
      checkedAt: v ? iso(v.checkedAt) : null,
      errorCode: v?.errorCode ?? null,
      errorMessage: v?.errorMessage ?? null,
      uptime24h: c ? uptimePercent(c.delivered, 0, c.checks) : null,
      checks24h: c?.checks ?? 0,
    };
  });
  const verdict = decideQuorum({ locations: m.locations, k: m.quorum, verdicts, now, freshMs });
  return {
    locations: figures,
    quorum: chosen.quorum,
    k: verdict.k,
    failing: verdict.failing.map((id) => names.get(id) ?? id),
  };
}

/** Latency by location over the last `hours`, at most 5,000 points in all. */
export async function locationLatency(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  monitorId: number,
  hours: number,
): Promise<LocationLatency> {
  const chosen = await deps.repos.monitorLocations.of(monitorId);
  if (!chosen) throw notFound('Monitor');
  const since = deps.clock.now() - hours * 3_600_000;
  const [choices, points] = await Promise.all([
    deps.repos.monitorLocations.choices(),
    deps.repos.monitorLocations.latency(monitorId, since, 5_000),
  ]);
  const names = new Map(choices.map((c) => [c.id, c.name]));
  return {
    series: [...points].map(([id, p]) => ({ id, name: names.get(id) ?? id, points: p })),
  };
}
