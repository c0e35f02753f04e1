import {
  appendRecent,
  type MonitorRowsQuery,
  type MonitorSummary,
  type ServerEvent,
} from '@pagewatch/contract';
import { RECENT_KEEP } from '../../domain/monitor.js';
import { uptime24h } from '../availability/last-day.js';
import type { ServiceDeps } from '../deps.js';
import { maintenanceNow } from '../maintenance/now.js';
import { countByStatus, presentSummary } from './present-summary.js';
import { indexRow, RowPager, type IndexedRow } from './row-pager.js';

// The 24 h uptime moves by a fraction of a percent per check; refreshing it this often is plenty.
const UPTIME_EVERY_MS = 15_000;

interface Row extends IndexedRow {
  json: string;
}

const byName = (a: MonitorSummary, b: MonitorSummary) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id;

/**
 * The dashboard's list as a read model: each monitor's summary is kept serialised and patched
 * from the live events, so a request for a thousand monitors joins strings instead of reading,
 * parsing and serialising every row. Valid only where the results flow through this process's
 * hub, i.e. with the scheduler role; otherwise the list is read from the database.
 */
export class MonitorSummaryCache {
  private readonly rows = new Map<number, Row>();
  private order: number[] | null = null;
  private loading: Promise<void> | null = null;
  private readonly changedWhileLoading = new Set<number>();
  private uptimeAt = 0;
  /** A flip moves the 24 h uptime at once; the next request must not show the old figure. */
  private uptimeStale = false;
  private readonly pager = new RowPager(this.rows);

  constructor(private readonly deps: ServiceDeps) {
    deps.hub.subscribe(({ event }) => this.apply(event));
  }

  /** Reads every monitor into the model now rather than on the first request. */
  async warm(): Promise<void> {
    await this.ready();
  }

  /** The MonitorRowPage response body (one page of the dashboard), as JSON text. */
  async pageJson(query: MonitorRowsQuery): Promise<string> {
    await this.ready();
    return this.pager.pageJson(query, this.deps.clock.now());
  }

  /** Ids of the monitors matching the dashboard's filters now. */
  async matchingIds(filter: Parameters<RowPager['matchingIds']>[0]): Promise<number[]> {
    await this.ready();
    return this.pager.matchingIds(filter);
  }

  /** The MonitorNames response body, as JSON text. */
  async namesJson(): Promise<string> {
    await this.ready();
    return this.pager.namesJson();
  }

  /** The MonitorList response body, as JSON text. */
  async listJson(): Promise<string> {
    await this.ready();
    this.order ??= [...this.rows.values()]
      .map((r) => r.summary)
      .sort(byName)
      .map((s) => s.id);
    const parts: string[] = [];
    for (const id of this.order) {
      const row = this.rows.get(id);
      if (row) parts.push(row.json);
    }
    const counts = countByStatus([...this.rows.values()].map((r) => r.summary));
    return `{"items":[${parts.join(',')}],"counts":${JSON.stringify(counts)}}`;
  }

  private async ready(): Promise<void> {
    await (this.loading ??= this.load());
    if (this.uptimeStale || this.deps.clock.now() - this.uptimeAt > UPTIME_EVERY_MS) {
      await this.refreshUptime();
    }
  }

  private async load(): Promise<void> {
    const [monitors, inMaintenance] = await Promise.all([
      this.deps.repos.monitors.list(),
      maintenanceNow(this.deps),
    ]);
    for (const m of monitors) this.put(presentSummary(m, null, inMaintenance(m.id)));
    await this.refreshUptime();
    // Definitions that changed while we read are read again.
    for (const id of this.changedWhileLoading) await this.reload(id);
    this.changedWhileLoading.clear();
  }

  private async refreshUptime(): Promise<void> {
    const now = this.deps.clock.now();
    this.uptimeAt = now;
    this.uptimeStale = false;
    const seen = await uptime24h(this.deps, [...this.rows.keys()]);
    for (const [id, row] of this.rows) {
      const uptime24h = seen.get(id) ?? null;
      if (row.summary.uptime24h !== uptime24h) this.put({ ...row.summary, uptime24h });
    }
  }

  private put(summary: MonitorSummary): void {
    const before = this.rows.get(summary.id)?.summary;
    if (!before || before.name !== summary.name) this.order = null;
    this.rows.set(summary.id, { ...indexRow(summary), json: JSON.stringify(summary) });
    this.pager.changed(
      !before ||
        before.name !== summary.name ||
        before.type !== summary.type ||
        before.target !== summary.target ||
        before.tags.join('\n') !== summary.tags.join('\n'),
    );
  }

  private async reload(id: number): Promise<void> {
    const m = await this.deps.repos.monitors.findById(id);
    if (!m) {
      this.rows.delete(id);
      this.order = null;
      this.pager.changed(true);
      return;
    }
    const uptime = await uptime24h(this.deps, [id]);
    const inMaintenance = await maintenanceNow(this.deps);
    this.put(presentSummary(m, uptime.get(id) ?? null, inMaintenance(id)));
  }

  /**
   * Many monitors changed by one bulk action: read together (two statements a thousand, not
   * three a monitor). Their 24 h uptime is what a pause, tag or interval leaves as it was.
   */
  private async reloadMany(ids: readonly number[]): Promise<void> {
    const [found, inMaintenance] = await Promise.all([
      this.deps.repos.monitors.findByIds(ids),
      maintenanceNow(this.deps),
    ]);
    const seen = new Set<number>();
    for (const m of found) {
      seen.add(m.id);
      const before = this.rows.get(m.id)?.summary;
      if (!before) this.uptimeStale = true;
      this.put(presentSummary(m, before?.uptime24h ?? null, inMaintenance(m.id)));
    }
    for (const id of ids) {
      if (seen.has(id) || !this.rows.delete(id)) continue;
      this.order = null;
      this.pager.changed(true);
    }
  }

  private apply(event: ServerEvent): void {
    if (event.kind === 'monitors') {
      if (!this.loading) return;
      for (const id of event.monitorIds) this.changedWhileLoading.add(id);
      this.reloadMany(event.monitorIds).then(
        () => {
          for (const id of event.monitorIds) this.changedWhileLoading.delete(id);
        },
        () => {
          this.loading = null;
          this.rows.clear();
          this.pager.changed(true);
        },
      );
      return;
    }
    if (event.kind === 'monitor') {
      if (!this.loading) return;
      this.changedWhileLoading.add(event.monitorId);
      this.reload(event.monitorId).then(
        () => this.changedWhileLoading.delete(event.monitorId),
        // Could not read it: start over from the database on the next request.
        () => {
          this.loading = null;
          this.rows.clear();
          this.pager.changed(true);
        },
      );
      return;
    }
    if (event.kind !== 'result' && event.kind !== 'status') return;
    const row = this.rows.get(event.monitorId);
    if (!row) return;
    const s = row.summary;
    if (event.kind === 'status') {
      this.uptimeStale = true;
      this.put({ ...s, status: s.paused ? 'paused' : event.to, statusChangedAt: event.at });
      return;
    }
    const { at, outcome, latencyMs, httpStatus, errorCode, errorMessage } = event.result;
    this.put({
      ...s,
      // A check that was running when the monitor was paused must not unpause its row.
      status: s.paused ? 'paused' : event.status,
      lastCheck: { at, outcome, latencyMs, httpStatus, errorCode, errorMessage },
      recent: appendRecent(s.recent, outcome, latencyMs, RECENT_KEEP),
    });
  }
}
