import { LOCAL_LOCATION_ID } from '@pagewatch/contract';
import { systemContext } from '../domain/actor.js';
import { OFFLINE_AFTER_MS } from '../domain/locations.js';
import type { Logger } from '../lib/logger.js';
import { sweepCoverage } from './coverage-sweep.js';
import { periodicJob, type PeriodicJob } from '../lib/periodic-job.js';
import type { ServiceDeps } from '../services/deps.js';
import { declareIncident } from '../services/incidents/create.js';
import { postIncidentUpdate } from '../services/incidents/post-update.js';

const at = (ms: number) => new Date(ms).toISOString();

/**
 * One pass over the remote locations (issue 16 item 5): a location whose probes have all been
 * silent for 30 s gets one incident, alerted once per channel (the instance's default
 * channels, not each monitor's), and its return resolves it. The compare-and-set on
 * `offline_since` keeps it to one incident however many processes look. Returns the earliest
 * moment a location now online turns offline if no heartbeat comes (null: none can).
 */
export async function sweepOfflineLocations(deps: ServiceDeps): Promise<number | null> {
  const now = deps.clock.now();
  const [locations, probes] = await Promise.all([
    deps.repos.locations.list(),
    deps.repos.locations.probes(),
  ]);
  let next: number | null = null;
  for (const l of locations) {
    if (l.id === LOCAL_LOCATION_ID) continue;
    const beats = probes
      .filter((p) => p.locationId === l.id && p.lastHeartbeatAt !== null)
      .map((p) => p.lastHeartbeatAt!);
    // A location none of whose probes ever connected has nothing to lose yet.
    if (beats.length === 0) continue;
    const last = Math.max(...beats);
    const offline = now - last >= OFFLINE_AFTER_MS;
    if (!offline) next = Math.min(next ?? Infinity, last + OFFLINE_AFTER_MS);
    if (offline && l.offlineSince === null) {
      if (!(await deps.repos.locations.markOffline(l.id, last + OFFLINE_AFTER_MS))) continue;
      const incident = await declareIncident(deps, systemContext, {
        title: `Location "${l.name}" is offline`,
        message: `No probe of location "${l.name}" has sent a heartbeat since ${at(last)}. Its monitors are decided by their other locations until it is back (or shown as unknown).`,
        severity: 'major',
        state: 'investigating',
        public: false,
        monitorIds: [],
      });
      await deps.repos.locations.setOfflineIncident(l.id, incident.id);
    } else if (!offline && l.offlineSince !== null) {
      const back = await deps.repos.locations.markOnline(l.id);
      if (back?.incidentId) {
        await postIncidentUpdate(deps, systemContext, back.incidentId, {
          state: 'resolved',
          message: `Location "${l.name}" is back: a probe sent a heartbeat at ${at(last)}.`,
          public: false,
        }).catch(() => undefined);
      }
    }
  }
  return next;
}

/**
 * Sweeps every few seconds while this process holds the `offline-locations` singleton: the
 * locations first, then the monitors they left without coverage (ADR 73), so the location's
 * incident comes before its monitors turn unknown. Each pass also sets a wake for the moment
 * the next location would reach 30 s of silence: polling alone would add up to a poll to the
 * detection (issue 16: a location offline within 30 s of its probes going away).
 */
export function startOfflineLocations(
  deps: ServiceDeps,
  logger: Logger,
  pollMs = 5000,
): PeriodicJob {
  let stopped = false;
  let wake: ReturnType<typeof setTimeout> | null = null;
  const wakeAt = (at: number | null) => {
    if (wake) clearTimeout(wake);
    wake = null;
    if (at === null || stopped) return;
    // A few ms past the deadline, so the pass that wakes sees the location silent for 30 s.
    wake = setTimeout(() => void job.tick(), Math.max(0, at - deps.clock.now()) + 5);
    wake.unref?.();
  };
  const job = periodicJob(
    async () => {
      try {
        wakeAt(await sweepOfflineLocations(deps));
      } catch (err) {
        logger.warn({ err }, 'locations: offline sweep failed');
      }
      await sweepCoverage(deps);
    },
    {
      everyMs: pollMs,
      onError: (err) => logger.warn({ err }, 'locations: coverage sweep failed'),
    },
  );
  return {
    tick: () => job.tick(),
    async stop() {
      stopped = true;
      wakeAt(null);
      await job.stop();
    },
  };
}
