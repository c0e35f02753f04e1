import type { ProbeHeartbeat, ProbeHeartbeatAnswer } from '@pagewatch/contract';
import { clockWarning } from '../../domain/locations.js';
import type { ServiceDeps } from '../deps.js';
import type { ProbeCaller } from './probe-auth.js';

/** Stores what a probe's heartbeat says; the answer carries the server's clock. */
export async function recordHeartbeat(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  caller: ProbeCaller,
  beat: ProbeHeartbeat,
): Promise<ProbeHeartbeatAnswer> {
  const now = deps.clock.now();
  await deps.repos.locations.heartbeat(caller.probeId, beat, now);
  return { serverTime: now, clockWarning: clockWarning(beat.clockOffsetMs) };
}
