import { incidentEvent } from '../domain/incidents.js';
import type { InsertedResult } from '../db/repositories/results.js';
import type { Clock } from '../lib/clock.js';
import type { EventHub } from '../lib/event-hub.js';
import type { MaintenanceLookup } from './maintenance.js';

/**
 * Tells the hub what was written: each result, each flip and each incident opened or resolved.
 * One path for the scheduler's writer and the locations' quorum decisions (ADR 58). `also`
 * hears the same writes in this process only (the hub's events travel to other processes).
 */
export function publishWritten(
  hub: EventHub,
  maintenance: MaintenanceLookup,
  clock: Clock,
  also?: (written: InsertedResult[]) => void,
): (written: InsertedResult[]) => void {
  return (written) => {
    also?.(written);
    const now = clock.now();
    for (const { write, result, incident } of written) {
      // Events carry what people see: `maintenance` while a window covers the monitor. The
      // status underneath is still tracked and stored, and shows again when the window ends.
      const covered = maintenance.inMaintenance(write.monitorId, now);
      const status = covered ? 'maintenance' : write.status;
      hub.publish({
        kind: 'result',
        monitorId: write.monitorId,
        status,
        result,
        details: write.run.details ?? null,
      });
      // A flip inside a window raises nothing (SPEC §4); it is in the history all the same.
      if (write.flip && !write.maintenance && !covered) {
        hub.publish({
          kind: 'status',
          monitorId: write.monitorId,
          from: write.flip.from,
          to: write.flip.to,
          at: result.at,
          errorCode: result.errorCode,
          message: result.errorMessage,
        });
      }
      if (incident) hub.publish(incidentEvent(incident.incident, incident.change, write.at));
    }
  };
}
