import type { CheckErrorCode, CheckOutcome } from '@pagewatch/contract';

export interface MonitorCounts {
  checks: Record<CheckOutcome, number>;
  /** Failed or degraded checks by their code; a code appears at its first occurrence. */
  failures: Map<CheckErrorCode, number>;
}

/** One counted check: monitor, outcome, error code. */
export type MonitorCounter = [number, CheckOutcome, CheckErrorCode | null];

/**
 * Checks this process ran, per monitor, for `pagewatch_monitor_checks_total` and
 * `…_failures_total`. In memory and reset on restart like any Prometheus counter; only a
 * process with the scheduler role has any, so only there are they exported.
 */
export class MonitorCounters {
  /** Set by the engine: this process runs checks, so its counts (zeros included) are exported. */
  active = false;
  private readonly byMonitor = new Map<number, MonitorCounts>();

  /** Counts since the last `takeDelta`, kept only in a scheduler worker (ADR 25). */
  private delta: MonitorCounter[] | null = null;

  /** A worker keeps what it counted for its primary, which exports them. */
  keepDelta(): void {
    this.delta ??= [];
  }

  /** What was counted since the last call, as [monitor, outcome, code] triples. */
  takeDelta(): MonitorCounter[] {
    const out = this.delta ?? [];
    if (this.delta) this.delta = [];
    return out;
  }

  record(monitorId: number, outcome: CheckOutcome, code: CheckErrorCode | null): void {
    this.delta?.push([monitorId, outcome, code]);
    let counts = this.byMonitor.get(monitorId);
    if (!counts) {
      counts = { checks: { up: 0, degraded: 0, down: 0 }, failures: new Map() };
      this.byMonitor.set(monitorId, counts);
    }
    counts.checks[outcome] += 1;
    if (code !== null) counts.failures.set(code, (counts.failures.get(code) ?? 0) + 1);
  }

  of(monitorId: number): MonitorCounts | undefined {
    return this.byMonitor.get(monitorId);
  }

  /** A deleted monitor's series go; a monitor made again under the same id starts at 0. */
  forget(monitorId: number): void {
    this.byMonitor.delete(monitorId);
  }
}
