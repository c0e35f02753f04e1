import type { MonitorType } from '@pagewatch/contract';
import { heartbeatDueAt, missedHeartbeat } from '../../domain/heartbeat.js';
import { settingsOf, type MonitorRecord } from '../../domain/monitor.js';
import type { CheckContext, CheckRun } from './types.js';
import { noPhases } from '../../domain/check-run.js';
import { runHttpCheck } from './http/index.js';
import { httpSecretsOf, httpSpecOf } from './http/spec-of.js';
import { runTcpCheck } from './tcp/index.js';
import { runDnsCheck } from './dns/index.js';
import { runTlsCheck } from './tls/index.js';
import { secureContextFor } from './socket.js';
import type { SecretOpener } from './stored-secret.js';
import { runBrowserCheck, type BrowserEngine } from './browser/index.js';
import { browserSecretsOf, browserSpecOf } from './browser/spec-of.js';
import { redactRun } from './redact-secrets.js';

export interface EngineOptions {
  /** Extra trusted CA certificates (PEM) for targets behind a private CA. */
  extraCa?: string[];
  /** The shared Chromium of browser checks; without it they report `browser_unavailable`. */
  browser?: BrowserEngine;
  /** Opens request credentials sealed with the instance key (compose wires the SecretBox). */
  openSecret?: SecretOpener;
}

/** A check that could not start because its stored credential would not open. */
function unreadableCredential(): CheckRun {
  return {
    outcome: 'down',
    latencyMs: null,
    phases: noPhases,
    httpStatus: null,
    errorCode: 'internal_error',
    errorMessage:
      'A stored password, token or header value could not be decrypted (was the secret key changed?); enter it again',
    responseSize: null,
    certExpiresAt: null,
    details: { certificate: null, assertions: [] },
  };
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
    run: (m, ctx, options) => {
      let spec;
      try {
        spec = httpSpecOf(m, options);
      } catch {
        return Promise.resolve(unreadableCredential());
      }
      const secrets = httpSecretsOf(m, spec);
      return runHttpCheck(spec, ctx).then((run) => redactRun(run, secrets));
    },
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
    run: (m, ctx, options) => {
      let spec;
      try {
        spec = browserSpecOf(m, options.openSecret);
      } catch {
        return Promise.resolve(unreadableCredential());
      }
      const secrets = browserSecretsOf(m, spec);
      return runBrowserCheck(spec, ctx, options.browser).then((run) => redactRun(run, secrets));
    },
  },
};
