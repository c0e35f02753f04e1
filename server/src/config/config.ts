import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const roles = ['web', 'scheduler', 'notifier'] as const;
export type Role = (typeof roles)[number];

/**
 * Every environment variable Pagewatch reads, with its default and what it means.
 * docs/configuration.md is this table in prose; keep the two together.
 */
const EnvSchema = z.object({
  PAGEWATCH_PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  PAGEWATCH_HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  PAGEWATCH_DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  PAGEWATCH_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for embedded SQLite)')
    .optional(),
  PAGEWATCH_DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case PostgreSQL identifier (a-z, 0-9, _)')
    .optional(),
  PAGEWATCH_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  PAGEWATCH_ROLES: z
    .string()
    .default(roles.join(','))
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(roles, { error: `roles are ${roles.join(', ')}` }))
        .min(1, 'name at least one role'),
    ),
  PAGEWATCH_CHECK_CONCURRENCY: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(500),
  PAGEWATCH_CAPACITY: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(1),
  PAGEWATCH_WORKERS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(64, 'must be at most 64')
    .optional(),
  // Set by a primary for the scheduler workers it forks; not for people to set.
  PAGEWATCH_WORKER_INDEX: z.coerce.number().int().min(1).optional(),
  PAGEWATCH_LEASE_RENEW_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(100, 'must be at least 100')
    .max(60_000, 'must be at most 60000')
    .default(2_000),
  PAGEWATCH_LEASE_EXPIRE_MS: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(500, 'must be at least 500')
    .max(600_000, 'must be at most 600000')
    .default(8_000),
  PAGEWATCH_CHROMIUM_PATH: z.string().optional(),
  PAGEWATCH_BROWSER_CONCURRENCY: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(16, 'must be at most 16')
    .default(2),
  PAGEWATCH_PUBLIC_URL: z
    .url({ error: 'must be a full URL such as https://status.example.com' })
    .optional(),
  PAGEWATCH_WEB_DIST: z.string().optional(),
  PAGEWATCH_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters (use a long random string)')
    .optional(),
  PAGEWATCH_NOTIFY_TIMEOUT_S: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(120, 'must be at most 120')
    .default(10),
  PAGEWATCH_NOTIFY_CONCURRENCY: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(16),
  PAGEWATCH_CONFIG: z.string().min(1, 'must not be empty').optional(),
  PAGEWATCH_CONFIG_PRUNE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  PAGEWATCH_CONFIG_POLL_S: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(3600, 'must be at most 3600')
    .default(30),
  PAGEWATCH_TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  // The self-connectivity guard's canaries (ADR 41): "host:port,host:port"; none: no guard.
  PAGEWATCH_CANARY_TARGETS: z
    .string()
    .trim()
    .refine(
      (v) =>
        v === '' || v.split(',').every((t) => /^(\[[^\]]+\]|[^:,\s]+):\d{1,5}$/.test(t.trim())),
      'must be host:port entries separated by commas',
    )
    .optional(),
  PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  PAGEWATCH_METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters (use a long random string)')
    .optional(),
  PAGEWATCH_METRICS_BASIC_AUTH: z
    .string()
    .regex(/^[^:]+:.{8,}$/, 'must be user:password, the password at least 8 characters')
    .optional(),
  PAGEWATCH_METRICS_PER_MONITOR: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  PAGEWATCH_METRICS_MONITOR_LIMIT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be at least 0')
    .max(1_000_000, 'must be at most 1000000')
    .default(10_000),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly database:
    | { readonly kind: 'sqlite'; readonly file: string }
    | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string };
  readonly logLevel: string;
  readonly roles: readonly Role[];
  readonly checkConcurrency: number;
  /** This scheduler's weight in the share of partitions among schedulers (ADR 21). */
  readonly capacity: number;
  /** Scheduler processes on this machine, this one included (ADR 25). */
  readonly workers: number;
  /** Set in a worker forked by a primary: its number, from 1; null in the primary. */
  readonly workerIndex: number | null;
  /** Lease renewal period and expiry (ADR 21); the skew allowance is an eighth of the expiry. */
  readonly lease: { readonly renewMs: number; readonly expireMs: number; readonly skewMs: number };
  /** Chromium for browser checks; undefined: the standard install locations are tried. */
  readonly chromiumPath: string | undefined;
  /** Browser checks running at once, inside the general check concurrency. */
  readonly browserConcurrency: number;
  readonly publicUrl: string | undefined;
  /** Folder of the built SPA; null disables serving it (API-only). */
  readonly webDist: string | null;
  /** Key material for secrets at rest; when unset a key is generated into the data dir. */
  readonly secret: string | undefined;
  /** Honour X-Forwarded-For/-Proto from a reverse proxy in front. */
  readonly trustProxy: boolean;
  /** Lets status-page visitors subscribe webhooks on private or loopback addresses (off). */
  readonly allowPrivateSubscriberWebhooks: boolean;
  /** Canary targets of the self-connectivity guard, "host:port,…"; empty: no guard (ADR 41). */
  readonly canaryTargets?: string;
  /** Outgoing notifications (the notifier role). */
  readonly notify: NotifyConfig;
  /** What /metrics exports and who may scrape it. */
  readonly metrics: MetricsConfig;
  /** NODE_ENV=development: answers carry figures for dev tools (Server-Timing: auth). */
  readonly development?: boolean;
  /** Server-side configuration files (PAGEWATCH_CONFIG); null or absent: the mode is off. */
  readonly configFile?: ConfigFileConfig | null;
}

export interface ConfigFileConfig {
  /** The file or folder (its *.yaml, *.yml, *.json merged), absolute. */
  readonly path: string;
  /** Delete managed resources the files dropped (default: detach them). */
  readonly prune: boolean;
  /** The backstop poll for filesystems where watching misses changes. */
  readonly pollMs: number;
}

export interface MetricsConfig {
  /** `Authorization: Bearer <token>` opens /metrics; null: no token. */
  readonly token: string | null;
  /** Basic credentials that open /metrics; null: none. Open to all when both are null. */
  readonly basicAuth: { readonly user: string; readonly password: string } | null;
  /** Series per monitor (status, timings, uptime, counters); off leaves the engine's own. */
  readonly perMonitor: boolean;
  /** Monitors with per-monitor series, lowest ids first; the rest are counted as omitted. */
  readonly monitorLimit: number;
}

export interface NotifyConfig {
  /** Refuse loopback and private-range targets too (link-local is always refused). */
  readonly blockPrivateTargets: boolean;
  /** Time limit of one delivery attempt. */
  readonly timeoutMs: number;
  /** Deliveries in flight at once, over all channels. */
  readonly concurrency: number;
}

/** One scheduler process per core, at most four: past that the database is the limit. */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(os.availableParallelism(), 4));
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and validates the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv, defaultWebDist: string | null = null): Config {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(
      Object.entries(env).filter(([k, v]) => k.startsWith('PAGEWATCH_') && v !== ''),
    ),
  );
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0]);
        return `${name}=${JSON.stringify(env[name] ?? '')} ${i.message}`;
      }),
    );
  }
  const e = parsed.data;
  // Renewals must fit in the safe margin: expiry − renewal − skew (an eighth) ≥ renewal.
  if (e.PAGEWATCH_LEASE_EXPIRE_MS * 7 < e.PAGEWATCH_LEASE_RENEW_MS * 16) {
    throw new ConfigError([
      `PAGEWATCH_LEASE_EXPIRE_MS=${e.PAGEWATCH_LEASE_EXPIRE_MS} must be at least 16/7 of PAGEWATCH_LEASE_RENEW_MS (${Math.ceil((e.PAGEWATCH_LEASE_RENEW_MS * 16) / 7)} for ${e.PAGEWATCH_LEASE_RENEW_MS}), so a lease is renewed twice within its safe margin`,
    ]);
  }
  const dataDir = path.resolve(e.PAGEWATCH_DATA_DIR);
  return Object.freeze({
    port: e.PAGEWATCH_PORT,
    host: e.PAGEWATCH_HOST,
    dataDir,
    database: e.PAGEWATCH_DATABASE_URL
      ? {
          kind: 'postgres' as const,
          url: e.PAGEWATCH_DATABASE_URL,
          ...(e.PAGEWATCH_DATABASE_SCHEMA ? { schema: e.PAGEWATCH_DATABASE_SCHEMA } : {}),
        }
      : { kind: 'sqlite' as const, file: path.join(dataDir, 'pagewatch.db') },
    logLevel: e.PAGEWATCH_LOG_LEVEL,
    roles: Object.freeze([...new Set(e.PAGEWATCH_ROLES)]),
    checkConcurrency: e.PAGEWATCH_CHECK_CONCURRENCY,
    capacity: e.PAGEWATCH_CAPACITY,
    workers: e.PAGEWATCH_WORKERS ?? defaultWorkers(),
    workerIndex: e.PAGEWATCH_WORKER_INDEX ?? null,
    lease: Object.freeze({
      renewMs: e.PAGEWATCH_LEASE_RENEW_MS,
      expireMs: e.PAGEWATCH_LEASE_EXPIRE_MS,
      skewMs: Math.floor(e.PAGEWATCH_LEASE_EXPIRE_MS / 8),
    }),
    chromiumPath: e.PAGEWATCH_CHROMIUM_PATH,
    browserConcurrency: e.PAGEWATCH_BROWSER_CONCURRENCY,
    publicUrl: e.PAGEWATCH_PUBLIC_URL,
    webDist: e.PAGEWATCH_WEB_DIST ?? defaultWebDist,
    secret: e.PAGEWATCH_SECRET,
    trustProxy: e.PAGEWATCH_TRUST_PROXY ?? false,
    allowPrivateSubscriberWebhooks: e.PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS ?? false,
    canaryTargets: e.PAGEWATCH_CANARY_TARGETS ?? '',
    notify: Object.freeze({
      blockPrivateTargets: e.PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS ?? false,
      timeoutMs: e.PAGEWATCH_NOTIFY_TIMEOUT_S * 1000,
      concurrency: e.PAGEWATCH_NOTIFY_CONCURRENCY,
    }),
    metrics: Object.freeze({
      token: e.PAGEWATCH_METRICS_TOKEN ?? null,
      basicAuth: splitBasic(e.PAGEWATCH_METRICS_BASIC_AUTH),
      perMonitor: e.PAGEWATCH_METRICS_PER_MONITOR ?? true,
      monitorLimit: e.PAGEWATCH_METRICS_MONITOR_LIMIT,
    }),
    development: env.NODE_ENV === 'development',
    configFile: e.PAGEWATCH_CONFIG
      ? Object.freeze({
          path: path.resolve(e.PAGEWATCH_CONFIG),
          prune: e.PAGEWATCH_CONFIG_PRUNE ?? false,
          pollMs: e.PAGEWATCH_CONFIG_POLL_S * 1000,
        })
      : null,
  });
}

/** `user:password`, split at the first colon (passwords may hold colons, user names may not). */
function splitBasic(value: string | undefined): MetricsConfig['basicAuth'] {
  if (value === undefined) return null;
  const at = value.indexOf(':');
  return Object.freeze({ user: value.slice(0, at), password: value.slice(at + 1) });
}
