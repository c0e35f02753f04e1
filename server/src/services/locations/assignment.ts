import type { ProbeMonitor, ProbeStreamLine } from '@pagewatch/contract';
import type { AssignedMonitor } from '../../db/repositories/locations.js';
import { POOL_LEAVE_MS, poolOwner } from '../../domain/locations.js';
import type { MonitorRecord } from '../../domain/monitor.js';
import type { ServiceDeps } from '../deps.js';
import { stillValid, type ProbeCaller } from './probe-auth.js';

/** Check types a probe runs; push and group stay on the server, domain asks RDAP from here. */
export const PROBE_TYPES: ReadonlySet<string> = new Set(['http', 'tcp', 'dns', 'tls', 'browser']);

type Deps = Pick<ServiceDeps, 'repos' | 'clock' | 'secrets'>;

/** The monitors of the caller's location that fall to it within its pool. */
async function owned(deps: Deps, caller: ProbeCaller): Promise<AssignedMonitor[]> {
  const now = deps.clock.now();
  const [monitors, live] = await Promise.all([
    deps.repos.locations.monitorsAt(caller.locationId),
    deps.repos.locations.liveProbeIds(caller.locationId, now - POOL_LEAVE_MS),
  ]);
  // A probe that has just connected counts before its first heartbeat lands.
  const pool = live.includes(caller.probeId) ? live : [...live, caller.probeId];
  return monitors.filter(
    (m) => PROBE_TYPES.has(m.type) && poolOwner(m.id, pool) === caller.probeId,
  );
}

/** What the probe needs to run a monitor: the record with its stored credentials opened. */
function toProbeMonitor(deps: Deps, m: MonitorRecord): ProbeMonitor {
  const open = (sealed: string | null | undefined): string | null => {
    if (sealed == null) return null;
    try {
      return deps.secrets.open(sealed);
    } catch {
      return null;
    }
  };
  const { state: _state, recent: _recent, lastCheck: _last, lastDetails: _details, ...rest } = m;
  return {
    id: m.id,
    type: m.type,
    intervalS: m.interval,
    timeoutS: m.timeout,
    updatedAt: m.updatedAt,
    definition: { ...rest, secret: open(m.secret), headerSecrets: open(m.headerSecrets) },
  };
}

async function load(deps: Deps, ids: readonly number[]): Promise<ProbeMonitor[]> {
  if (ids.length === 0) return [];
  return (await deps.repos.monitors.findByIds(ids)).map((m) => toProbeMonitor(deps, m));
}

export interface FeedOptions {
  /** How often the assignment is compared with the database (edits reach the probe by then). */
  pollMs?: number;
  /** How often a `ping` line keeps proxies and the probe's watchdog content. */
  pingMs?: number;
}

/**
 * One probe's assignment stream: a snapshot, then upserts and removals as monitors are edited,
 * move in or out of the location or between the pool's probes, and a `closing` line when the
 * token stops working. Polls the database, so an edit made through any server process counts.
 */
export class AssignmentFeed {
  private known = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private lastPing = 0;
  private busy = false;
  private stopped = false;

  constructor(
    private readonly deps: Deps,
    private readonly caller: ProbeCaller,
    private readonly send: (line: ProbeStreamLine) => void,
    private readonly end: () => void,
    private readonly options: FeedOptions = {},
  ) {}

  async start(heartbeatMs: number): Promise<void> {
    const now = this.deps.clock.now();
    this.send({
      type: 'hello',
      serverTime: now,
      protocol: 1,
      probeId: this.caller.probeId,
      locationId: this.caller.locationId,
      heartbeatMs,
    });
    const mine = await owned(this.deps, this.caller);
    const monitors = await load(
      this.deps,
      mine.map((m) => m.id),
    );
    this.known = new Map(monitors.map((m) => [m.id, m.updatedAt]));
    this.lastPing = this.deps.clock.now();
    this.send({ type: 'snapshot', serverTime: this.lastPing, monitors });
    const poll = this.options.pollMs ?? 1000;
    this.timer = setInterval(() => void this.tick(), poll);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      if (!(await stillValid(this.deps, this.caller))) {
        this.send({ type: 'closing', serverTime: this.deps.clock.now(), reason: 'revoked' });
        this.stop();
        return this.end();
      }
      await this.compare();
      const now = this.deps.clock.now();
      if (now - this.lastPing >= (this.options.pingMs ?? 5000)) {
        this.lastPing = now;
        this.send({ type: 'ping', serverTime: now });
      }
    } catch {
      // A database hiccup: the next poll tries again; the probe keeps its assignment meanwhile.
    } finally {
      this.busy = false;
    }
  }

  private async compare(): Promise<void> {
    const mine = await owned(this.deps, this.caller);
    const now = new Map(mine.map((m) => [m.id, m.updatedAt]));
    const gone = [...this.known.keys()].filter((id) => !now.has(id));
    const changed = mine.filter((m) => this.known.get(m.id) !== m.updatedAt).map((m) => m.id);
    if (this.stopped) return;
    if (gone.length > 0) {
      for (const id of gone) this.known.delete(id);
      this.send({ type: 'remove', serverTime: this.deps.clock.now(), ids: gone });
    }
    if (changed.length > 0) {
      const monitors = await load(this.deps, changed);
      if (this.stopped) return;
      for (const m of monitors) this.known.set(m.id, m.updatedAt);
      this.send({ type: 'upsert', serverTime: this.deps.clock.now(), monitors });
    }
  }
}
