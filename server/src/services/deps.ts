import type { CheckRun } from '../domain/check-run.js';
import type { MonitorRecord } from '../domain/monitor.js';
import type { Repositories } from '../db/repositories/index.js';
import type { Transact } from '../db/unit-of-work.js';
import type { Clock } from '../lib/clock.js';
import type { CredentialRevocations } from '../lib/credential-revocations.js';
import type { SecretBox } from '../lib/crypto.js';
import type { EventHub } from '../lib/event-hub.js';
import type { AuthCache } from './auth/cache.js';
import type { LocationResultRecorder } from './locations/ingest.js';
import type { MaintenanceIndex } from './maintenance/live-index.js';
import type { MonitorSummaryCache } from './monitors/summary-cache.js';
import type { SettingsStore } from './settings/store.js';
import type { CounterSource } from './slos/figures.js';

/**
 * Asks this process's check engine to run a monitor now; absent when it runs no scheduler.
 * False when the monitor is not scheduled here (another process owns its partition, or it is
 * not loaded yet): the request is then handed over through the database.
 */
export interface CheckTrigger {
  checkNow(monitorId: number): boolean;
  /** Hands the engine a result that arrived (a push ping); false if it isn't scheduling the monitor. */
  pushResult(monitorId: number, run: CheckRun, at: number): boolean;
}

export interface ServiceDeps {
  repos: Repositories;
  hub: EventHub;
  clock: Clock;
  trigger: CheckTrigger | null;
  /** Rung after a request was handed over (wakes the owners over NOTIFY on PostgreSQL). */
  handedOver?: () => void;
  /** Encrypts secrets at rest with the instance key. */
  secrets: SecretBox;
  /** Key for values derived from session ids (CSRF tokens). */
  instanceKey: Buffer;
  authCache: AuthCache;
  /** Rung after a session ends or a person's or key's rights change (open streams re-check). */
  revocations: CredentialRevocations;
  /** One-time token for first-run setup from another machine; printed in the log. */
  setupToken: string;
  /** PAGEWATCH_PUBLIC_URL: where people and jobs reach this instance, when configured. */
  publicUrl?: string | null;
  /** The dashboard list kept in memory; null where results don't pass through this process. */
  summaries?: MonitorSummaryCache | null;
  /** Which monitors are in an active maintenance window; absent in tests that don't need it. */
  maintenance?: MaintenanceIndex | null;
  /** The SLO evaluator's live burn-rate counters where this process runs it (ADR 53). */
  sloCounters?: CounterSource | null;
  /** PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS: visitors may name private webhook hosts. */
  allowPrivateSubscriberWebhooks?: boolean;
  /** PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS, for sends made by a service ("send test"). */
  blockPrivateNotifyTargets?: boolean;
  /** PAGEWATCH_DATA_DIR: scheduled backups default to its `backups/` folder. */
  dataDir?: string | null;
  /** This process as a cluster member (Settings → Cluster); absent where it is not wired. */
  cluster?: ClusterSelf | null;
  /** Instance settings, read from the database and cached briefly (ADR 27). */
  settings?: SettingsStore | null;
  /** Runs writes of several services in one transaction (config apply, importers; ADR 28). */
  transact?: Transact;
  /** Records a location's results (probes' batches; ADR 58); absent where it is not wired. */
  recordLocationResults?: LocationResultRecorder | null;
  /** Runs one check of an unsaved definition through the check engine (the form's "Test"). */
  trialCheck?: (monitor: MonitorRecord, signal: AbortSignal) => Promise<CheckRun>;
}

/** Which member this process is and when members expire, for the cluster overview (ADR 21). */
export interface ClusterSelf {
  /** The member id, or null while this process has not joined. */
  memberId(): string | null;
  /** A member whose heartbeat is older than this is dead. */
  expireMs: number;
}
