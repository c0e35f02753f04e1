import { MaintenanceCalendar, type CalendarWindow } from '../../domain/maintenance/calendar.js';
import type { MaintenanceRecord } from '../../domain/maintenance/window.js';
import type { CoverageChange, MaintenanceLookup } from '../../engine/maintenance.js';
import type { ServiceDeps } from '../deps.js';

const HOUR = 3_600_000;
/** Expanded this far around now; a check or a read outside it rebuilds the calendar. */
const BEHIND = 6 * HOUR;
const AHEAD = 36 * HOUR;
/** Boundary timers are re-armed at least this often, so a long sleep never drifts far. */
const MAX_TIMER = HOUR;

const toCalendarWindow = (w: MaintenanceRecord): CalendarWindow => ({
  id: w.id,
  timezone: w.timezone,
  schedule: w.schedule,
  scope: w.scope,
  cancelled: w.cancelledAt !== null,
});

type Listener = (change: CoverageChange) => void;

/**
 * Maintenance windows in memory, so a check asks "is this monitor in maintenance?" without a
 * query. Loaded once, reloaded when a `maintenance` event says a window changed, and, once
 * started, woken at every window boundary to tell listeners (the engine) which monitors
 * entered or left maintenance, so dashboards change without waiting for a check.
 */
export class MaintenanceIndex implements MaintenanceLookup {
  private windows: CalendarWindow[] = [];
  private calendar: MaintenanceCalendar | null = null;
  private loading: Promise<void> | null = null;
  /** The latest reload, so readers after a change see it. */
  private reloading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private readonly listeners = new Set<Listener>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: Pick<ServiceDeps, 'repos' | 'hub' | 'clock'>,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.unsubscribe = deps.hub.subscribe(({ event }) => {
      if (event.kind === 'maintenance' && this.loading) this.reload();
    });
  }

  /** Resolves once the windows have been read, including changes already announced. */
  async ready(): Promise<void> {
    await (this.loading ??= this.read().catch((err: unknown) => {
      this.loading = null;
      throw err;
    }));
    await this.reloading;
  }

  /** Reads the windows and wakes at each boundary from now on. */
  async start(): Promise<void> {
    await this.ready();
    this.running = true;
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  inMaintenance(monitorId: number, at: number): boolean {
    return this.calendarAt(at)?.inMaintenance(monitorId, at) ?? false;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async read(): Promise<void> {
    this.windows = (await this.deps.repos.maintenance.list()).map(toCalendarWindow);
    this.calendar = null;
  }

  private calendarAt(at: number): MaintenanceCalendar | null {
    if (!this.loading) return null;
    if (!this.calendar?.covers(at)) {
      this.calendar = new MaintenanceCalendar(this.windows, at - BEHIND, at + AHEAD);
    }
    return this.calendar;
  }

  private reload(): void {
    const now = this.deps.clock.now();
    const before = this.calendarAt(now);
    this.reloading = this.read().then(
      () => {
        const after = this.calendarAt(now);
        if (before && after) {
          this.notify({
            at: now,
            wasIn: (id) => before.inMaintenance(id, now),
            isIn: (id) => after.inMaintenance(id, now),
          });
        }
        this.arm();
      },
      (err: unknown) => this.onError(err),
    );
  }

  private notify(change: CoverageChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  private arm(): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    const now = this.deps.clock.now();
    const next = this.calendarAt(now)?.nextBoundary(now) ?? null;
    const delay = next === null ? MAX_TIMER : Math.min(Math.max(0, next - now), MAX_TIMER);
    this.timer = setTimeout(() => this.wake(next), delay);
    this.timer.unref();
  }

  private wake(boundary: number | null): void {
    this.timer = null;
    const now = this.deps.clock.now();
    if (boundary !== null && boundary <= now) {
      const cal = this.calendarAt(boundary);
      if (cal) {
        this.notify({
          at: boundary,
          wasIn: (id) => cal.inMaintenance(id, boundary - 1),
          isIn: (id) => cal.inMaintenance(id, boundary),
        });
      }
    }
    this.arm();
  }
}
