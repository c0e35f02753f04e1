import type { MonitorStatus, ServerEvent } from '@pagewatch/contract';
import {
  uptimeWindows,
  type MonitorGaugeRow,
  type UptimeWindow,
} from '../../db/repositories/monitor-metrics.js';
import type { MonitorCounters } from '../../lib/monitor-counters.js';
import type { ServiceDeps } from '../deps.js';
import { maintenanceNow } from '../maintenance/now.js';
import { renderMonitorFamilies } from './monitor-families.js';

/** Uptime ratios and a full re-read of the monitors are at most this old. */
export const REFRESH_MS = 60_000;

export interface MonitorSeriesOptions {
  counters: MonitorCounters;
  /** Monitors with series, lowest ids first. */
  limit: number;
  /** A refresh in the background failed (the next scrape tries again). */
  onError?: (err: unknown) => void;
}

type Deps = Pick<ServiceDeps, 'repos' | 'hub' | 'clock' | 'maintenance'>;

/**
 * The per-monitor series of /metrics as a read model: the monitors are read once, patched
 * from live events (results, flips; in every process, through the shared events on
 * PostgreSQL), and read again after an edit or once a minute. Uptime ratios come from the
 * rollups, refreshed in the background at most once a minute: a scrape never waits on them
 * after the first.
 */
export class MonitorSeries {
  private rows: Map<number, MonitorGaugeRow> | null = null;
  private loading: Promise<void> | null = null;
  private dirty = true;
  private loadedAt = 0;
  /** Events that arrived while the monitors were being read, applied after. */
  private queued: ServerEvent[] | null = null;
  private uptime = new Map<number, Partial<Record<UptimeWindow, number>>>();
  private uptimeAt: number | null = null;
  private uptimeLoading: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: Deps,
    private readonly options: MonitorSeriesOptions,
  ) {
    this.unsubscribe = deps.hub.subscribe(({ event }) => this.apply(event));
  }

  close(): void {
    this.unsubscribe();
  }

  /** The families as text exposition, ready to append to the registry's. */
  async exposition(): Promise<Buffer> {
    const now = this.deps.clock.now();
    if (this.dirty || this.rows === null) await this.load();
    else if (now - this.loadedAt >= REFRESH_MS) this.inBackground(this.load());
    if (this.uptimeAt === null) await this.loadUptime();
    else if (now - this.uptimeAt >= REFRESH_MS) this.inBackground(this.loadUptime());
    const rows = [...(this.rows ?? new Map<number, MonitorGaugeRow>()).values()];
    const inMaintenance = await maintenanceNow(this.deps);
    const shown = rows.slice(0, this.options.limit);
    return renderMonitorFamilies({
      rows: shown,
      statusOf: (row): MonitorStatus =>
        row.paused ? 'paused' : inMaintenance(row.id) ? 'maintenance' : row.status,
      uptime: this.uptime,
      counters: this.options.counters.active ? this.options.counters : null,
      omitted: rows.length - shown.length,
    });
  }

  private inBackground(work: Promise<void>): void {
    work.catch((err: unknown) => this.options.onError?.(err));
  }

  private load(): Promise<void> {
    return (this.loading ??= (async () => {
      this.dirty = false;
      this.queued = [];
      try {
        const rows = await this.deps.repos.monitorMetrics.gauges();
        this.rows = new Map(rows.map((r) => [r.id, r]));
        this.loadedAt = this.deps.clock.now();
        // Taken out before replaying: apply() queues while a queue exists, and replaying into
        // the queue being read grew it without end (a crashed test run, "invalid size").
        const queued = this.queued ?? [];
        this.queued = null;
        for (const event of queued) this.apply(event);
      } catch (err) {
        this.dirty = true;
        throw err;
      } finally {
        this.queued = null;
        this.loading = null;
      }
    })());
  }

  private loadUptime(): Promise<void> {
    return (this.uptimeLoading ??= (async () => {
      try {
        const now = this.deps.clock.now();
        const counts = await this.deps.repos.monitorMetrics.uptime(now);
        const next = new Map<number, Partial<Record<UptimeWindow, number>>>();
        for (const window of uptimeWindows) {
          for (const { monitorId, checks, good } of counts[window]) {
            if (checks === 0) continue;
            const ratios = next.get(monitorId) ?? {};
            ratios[window] = good / checks;
            next.set(monitorId, ratios);
          }
        }
        this.uptime = next;
        this.uptimeAt = now;
      } finally {
        this.uptimeLoading = null;
      }
    })());
  }

  private apply(event: ServerEvent): void {
    if (event.kind === 'monitors') {
      this.dirty = true;
      return;
    }
    if (event.kind === 'monitor') {
      // A rename, a pause or a new monitor shows on the next scrape; a deleted one is gone now.
      this.dirty = true;
      if (event.change === 'deleted') {
        this.rows?.delete(event.monitorId);
        this.options.counters.forget(event.monitorId);
      }
      return;
    }
    if (event.kind !== 'result' && event.kind !== 'status') return;
    if (this.queued) this.queued.push(event);
    const row = this.rows?.get(event.monitorId);
    if (!row) return;
    // Maintenance is worked out at scrape time; the rows keep the status tracked beneath it.
    if (event.kind === 'status') {
      if (event.to !== 'maintenance') row.status = event.to;
      return;
    }
    const r = event.result;
    if (event.status !== 'maintenance') row.status = event.status;
    row.latencyMs = r.latencyMs;
    row.phases = r.phases;
    row.httpStatus = r.httpStatus;
    row.certExpiresAt = r.certExpiresAt === null ? null : Date.parse(r.certExpiresAt);
  }
}
