import type { Repositories } from '../db/repositories/index.js';
import type { InsertedResult } from '../db/repositories/results.js';
import type { CheckRun } from '../domain/check-run.js';
import type { MonitorRecord } from '../domain/monitor.js';
import type { Clock } from '../lib/clock.js';
import type { EventHub } from '../lib/event-hub.js';
import type { Logger } from '../lib/logger.js';
import {
  DecisionQueue,
  recordLocationResults,
  type LocationIngestOutcome,
  type LocationResultDeps,
  type LocationResultItem,
} from './location-results.js';
import type { MaintenanceLookup } from './maintenance.js';
import { publishWritten } from './publish-written.js';

/** This process's entry to the quorum (ADR 58): probes' batches and the local scheduler's. */
export interface LocationIngest {
  record(
    locationId: string,
    items: readonly LocationResultItem[],
    options: { replayed: boolean },
  ): Promise<LocationIngestOutcome>;
  /** The local scheduler's check of a monitor decided by several locations. */
  recordLocal(monitor: MonitorRecord, run: CheckRun, startedAt: number, roundDue: number): void;
}

export function createLocationIngest(deps: {
  repos: Repositories;
  hub: EventHub;
  clock: Clock;
  logger: Logger;
  maintenance: MaintenanceLookup;
  /** Hears what the quorum wrote in this process (groups following their members' flips). */
  onWritten?: (written: InsertedResult[]) => void;
}): LocationIngest {
  const resultDeps: LocationResultDeps = {
    repos: deps.repos,
    clock: deps.clock,
    logger: deps.logger,
    inMaintenance: (id, at) => deps.maintenance.inMaintenance(id, at),
    onWritten: publishWritten(deps.hub, deps.maintenance, deps.clock, deps.onWritten),
    // One queue for the process: a probe's batch and a local check of the same monitor at once
    // are decided one after the other.
    queue: new DecisionQueue(),
  };
  const record: LocationIngest['record'] = (locationId, items, options) =>
    recordLocationResults(resultDeps, locationId, items, options);
  return {
    record,
    recordLocal(monitor, run, startedAt, roundDue) {
      const item = {
        monitorId: monitor.id,
        roundAt: new Date(roundDue).toISOString(),
        startedAt: new Date(startedAt).toISOString(),
        result: run,
      };
      record('local', [item], { replayed: false }).catch((err: unknown) =>
        deps.logger.error(
          { err, monitorId: monitor.id },
          'could not record a local location result',
        ),
      );
    },
  };
}
