import type { MonitorType } from '@pagewatch/contract';
import { heartbeatDueAt, missedHeartbeat } from '../../domain/heartbeat.js';
import { settingsOf, type MonitorRecord } from '../../domain/monitor.js';
import type { CheckContext, CheckRun } from './types.js';
import { runHttpCheck } from './http/index.js';
import { runTcpCheck } from './tcp/index.js';
import { runDnsCheck } from './dns/index.js';
import { runTlsCheck } from './tls/index.js';
import { secureContextFor } from './socket.js';
import { runBrowserCheck, type BrowserEngine } from './browser/index.js';

export interface EngineOptions {
  /** Extra trusted CA certificates (PEM) for targets behind a private CA. */
  extraCa?: string[];
  /** The shared Chromium of browser checks; without it they report `browser_unavailable`. */
  browser?: BrowserEngine;
}

export interface CheckType {
  run(monitor: MonitorRecord, ctx: CheckContext, options: EngineOptions): Promise<CheckRun>;
  /**
   * Types whose results arrive on their own (push): the earliest the scheduled check may
   * run, given what arrived; a check due before then is put off. Null: run as planned.
   */
  notBefore?(monitor: MonitorRecord): number | null;
}

/** One line per check type; the engine knows no type by name anywhere else. */
export const checkTypes: Record<MonitorType, CheckType> = {
  http: {
    run: (m, ctx, options) =>
      runHttpCheck(
        {
          ...settingsOf(m, 'http'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
          ...(options.extraCa ? { ca: options.extraCa } : {}),
        },
        ctx,
      ),
  },
  tcp: {
    run: (m, ctx) =>
      runTcpCheck(
        {
          ...settingsOf(m, 'tcp'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
        },
        ctx,
      ),
  },
  dns: {
    run: (m, ctx) =>
      runDnsCheck(
        {
          ...settingsOf(m, 'dns'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
        },
        ctx,
      ),
  },
  tls: {
    run: (m, ctx, options) =>
      runTlsCheck(
        {
          ...settingsOf(m, 'tls'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
          secureContext: secureContextFor(options.extraCa),
        },
        ctx,
      ),
  },
  push: {
    // The scheduled check runs only once no ping came in time (notBefore), so it is a miss.
    run: (m, ctx) => Promise.resolve(missedHeartbeat(m, ctx.now ?? Date.now())),
    notBefore: heartbeatDueAt,
  },
  browser: {
    run: (m, ctx, options) =>
      runBrowserCheck(
        {
          ...settingsOf(m, 'browser'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
        },
        ctx,
        options.browser,
      ),
  },
};
