import type { CheckRun } from '../../domain/check-run.js';
import { partitionOf } from '../../domain/cluster/index.js';
import type { ServiceDeps } from '../deps.js';

/**
 * Any process serves any request (ADR 24): a check-now or a push ping for a monitor this
 * process does not schedule is written for the process that owns the monitor's partition,
 * which claims it within a second (at once on PostgreSQL, woken over NOTIFY).
 */
export async function handOver(
  deps: ServiceDeps,
  request:
    { kind: 'check'; monitorId: number } | { kind: 'ping'; monitorId: number; run: CheckRun },
  at: number,
): Promise<void> {
  const partition = partitionOf(request.monitorId);
  await deps.repos.checkRequests.enqueue(
    request.kind === 'ping'
      ? { kind: 'ping', monitorId: request.monitorId, partition, at, run: request.run }
      : { kind: 'check', monitorId: request.monitorId, partition, at },
  );
  deps.handedOver?.();
}
