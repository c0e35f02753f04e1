import type { Header, MonitorType, RequestHeaderInput } from '@pagewatch/contract';
import { heartbeatDueAt, missedHeartbeat } from '../../domain/heartbeat.js';
import { settingsOf, type MonitorRecord } from '../../domain/monitor.js';
import type { CheckContext, CheckRun } from './types.js';
import { noPhases } from '../../domain/check-run.js';
import { runHttpCheck } from './http/index.js';
import { httpSecretsOf, httpSpecOf } from './http/spec-of.js';
import { runTcpCheck } from './tcp/index.js';
import { runPingCheck } from './ping/index.js';
import { runUdpCheck } from './udp/index.js';
import { runWebSocketCheck } from './websocket/index.js';
import { runGrpcCheck } from './grpc/index.js';
import { runDnsCheck } from './dns/index.js';
import { runTlsCheck } from './tls/index.js';
import { secureContextFor } from './socket.js';
import type { SecretOpener } from './stored-secret.js';
import { runBrowserCheck, type BrowserEngine } from './browser/index.js';
import { browserSecretsOf, browserSpecOf } from './browser/spec-of.js';
import { redactRun, sentSecrets } from './redact-secrets.js';
import { openHeaders, openStoredSecret } from './stored-secret.js';
import { runPostgresCheck } from './postgres/index.js';
import { runMysqlCheck } from './mysql/index.js';
import { runRedisCheck } from './redis/index.js';
import { runMongodbCheck } from './mongodb/index.js';
import { runMqttCheck } from './mqtt/index.js';
import { runAmqpCheck } from './amqp/index.js';
import { runSmtpCheck } from './smtp/index.js';
import { runImapCheck } from './imap/index.js';
import { runPop3Check } from './pop3/index.js';
import { runGroupCheck, type MemberStatusReader } from './group/index.js';
import {
  runDomainCheck,
  sharedRdapClient,
  withDomainExpiry,
  type RdapClient,
} from './domain/index.js';

export interface EngineOptions {
  /** Extra trusted CA certificates (PEM) for targets behind a private CA. */
  extraCa?: string[];
  /** The shared Chromium of browser checks; without it they report `browser_unavailable`. */
  browser?: BrowserEngine;
  /** Opens request credentials sealed with the instance key (compose wires the SecretBox). */
  openSecret?: SecretOpener;
  /** Cached RDAP lookups of domain monitors and the HTTP option; the process's by default. */
  rdap?: RdapClient;
  /** Group monitors' members' current statuses (compose reads the monitors table). */
  groupMembers?: MemberStatusReader;
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

/** Runs a check with the monitor's sealed password opened; it never shows in the results. */
function withPassword(
  m: MonitorRecord,
  options: EngineOptions,
  check: (password: string) => Promise<CheckRun>,
): Promise<CheckRun> {
  let password: string;
  try {
    password = openStoredSecret(m, options.openSecret);
  } catch {
    return Promise.resolve(unreadableCredential());
  }
  const secrets = sentSecrets([], [], { secret: password });
  return check(password).then((run) => redactRun(run, secrets));
}

/**
 * Runs a check with the monitor's request headers opened (secret values from their sealed
 * column, ADR 17); what it sent never shows in the results.
 */
function withHeaders(
  m: MonitorRecord,
  stored: readonly RequestHeaderInput[],
  options: EngineOptions,
  check: (headers: Header[]) => Promise<CheckRun>,
): Promise<CheckRun> {
  let headers: Header[];
  try {
    headers = openHeaders(m, stored, options.openSecret);
  } catch {
    return Promise.resolve(unreadableCredential());
  }
  const secrets = sentSecrets(stored, headers, null);
  return check(headers).then((run) => redactRun(run, secrets));
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
      const expiry = settingsOf(m, 'http').domainExpiry;
      return runHttpCheck(spec, ctx)
        .then((run) => redactRun(run, secrets))
        .then((run) =>
          expiry
            ? withDomainExpiry(
                run,
                spec.url,
                expiry.warnDays,
                ctx,
                options.rdap ?? sharedRdapClient(),
              )
            : run,
        );
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
  domain: {
    run: (m, ctx, options) =>
      runDomainCheck(
        { ...settingsOf(m, 'domain'), timeoutMs: m.timeout * 1000 },
        ctx,
        options.rdap ?? sharedRdapClient(),
      ),
  },
  ping: {
    run: (m, ctx) =>
      runPingCheck(
        {
          ...settingsOf(m, 'ping'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
        },
        ctx,
      ),
  },
  udp: {
    run: (m, ctx) =>
      runUdpCheck(
        {
          ...settingsOf(m, 'udp'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
        },
        ctx,
      ),
  },
  websocket: {
    run: (m, ctx, options) =>
      withHeaders(m, settingsOf(m, 'websocket').headers ?? [], options, (headers) =>
        runWebSocketCheck(
          {
            ...settingsOf(m, 'websocket'),
            headers,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            secureContext: secureContextFor(options.extraCa),
          },
          ctx,
        ),
      ),
  },
  grpc: {
    run: (m, ctx, options) =>
      withHeaders(m, settingsOf(m, 'grpc').headers ?? [], options, (metadata) =>
        runGrpcCheck(
          {
            ...settingsOf(m, 'grpc'),
            metadata,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            secureContext: secureContextFor(options.extraCa),
          },
          ctx,
        ),
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
  postgres: {
    run: (m, ctx, options) =>
      withPassword(m, options, (password) =>
        runPostgresCheck(
          {
            ...settingsOf(m, 'postgres'),
            password,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            extraCa: options.extraCa,
          },
          ctx,
        ),
      ),
  },
  mysql: {
    run: (m, ctx, options) =>
      withPassword(m, options, (password) =>
        runMysqlCheck(
          {
            ...settingsOf(m, 'mysql'),
            password,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            extraCa: options.extraCa,
          },
          ctx,
        ),
      ),
  },
  redis: {
    run: (m, ctx, options) =>
      withPassword(m, options, (password) =>
        runRedisCheck(
          {
            ...settingsOf(m, 'redis'),
            password,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            extraCa: options.extraCa,
          },
          ctx,
        ),
      ),
  },
  mongodb: {
    run: (m, ctx, options) =>
      withPassword(m, options, (password) =>
        runMongodbCheck(
          {
            ...settingsOf(m, 'mongodb'),
            password,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
          },
          ctx,
        ),
      ),
  },
  mqtt: {
    run: (m, ctx, options) =>
      withPassword(m, options, (password) =>
        runMqttCheck(
          {
            ...settingsOf(m, 'mqtt'),
            password,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            secureContext: secureContextFor(options.extraCa),
          },
          ctx,
        ),
      ),
  },
  amqp: {
    run: (m, ctx, options) =>
      withPassword(m, options, (password) =>
        runAmqpCheck(
          {
            ...settingsOf(m, 'amqp'),
            password,
            timeoutMs: m.timeout * 1000,
            degradedThresholdMs: m.degradedThresholdMs,
            secureContext: secureContextFor(options.extraCa),
          },
          ctx,
        ),
      ),
  },
  smtp: {
    run: (m, ctx, options) =>
      runSmtpCheck(
        {
          ...settingsOf(m, 'smtp'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
          secureContext: secureContextFor(options.extraCa),
        },
        ctx,
      ),
  },
  imap: {
    run: (m, ctx, options) =>
      runImapCheck(
        {
          ...settingsOf(m, 'imap'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
          secureContext: secureContextFor(options.extraCa),
        },
        ctx,
      ),
  },
  pop3: {
    run: (m, ctx, options) =>
      runPop3Check(
        {
          ...settingsOf(m, 'pop3'),
          timeoutMs: m.timeout * 1000,
          degradedThresholdMs: m.degradedThresholdMs,
          secureContext: secureContextFor(options.extraCa),
        },
        ctx,
      ),
  },
  group: {
    run: (m, ctx, options) => runGroupCheck(settingsOf(m, 'group'), ctx, options.groupMembers),
  },
};
