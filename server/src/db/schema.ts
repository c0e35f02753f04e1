import type { Generated } from 'kysely';

/** Epoch milliseconds; int8 in PostgreSQL, parsed back to number. */
type Millis = number;

export interface MonitorsTable {
  id: Generated<number>;
  type: string;
  name: string;
  /** JSON of the type-specific settings (url, method, headers, assertions…); never secrets. */
  config: string;
  /** The request credential (password or token), sealed with the instance key (SecretBox). */
  secret: string | null;
  /** JSON array of the secret request headers' values in settings order, sealed (migration 013). */
  header_secrets: string | null;
  interval_s: number;
  timeout_s: number;
  retries: number;
  retry_interval_s: number | null;
  degraded_threshold_ms: number | null;
  /** JSON array of strings. */
  tags: string;
  description: string;
  paused: number;
  status: Generated<string>;
  failures: Generated<number>;
  status_changed_at: Millis | null;
  last_check_at: Millis | null;
  last_outcome: number | null;
  last_latency_us: number | null;
  last_http_status: number | null;
  last_error_code: string | null;
  last_error_message: string | null;
  /** JSON array of [outcome, latencyUs|null] pairs for the latest checks, oldest first. */
  recent: Generated<string>;
  /** JSON CheckDetails of the last check (certificate, assertion results); null before one. */
  last_details: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** The push URL's token (push monitors only). */
  push_token: string | null;
  /** SHA-256 hex of push_token; pings are looked up by it. */
  push_token_hash: string | null;
  last_ping_at: Millis | null;
  /** When a run signalled `/start` and has not finished yet. */
  push_started_at: Millis | null;
  /** JSON AlertRules; null for the defaults. */
  alert_rules: string | null;
  /** JSON alert state (flap history, what was announced); null before the first alert. */
  alert_state: string | null;
  /** The round of the last result recorded (migration 014); null before rounds. */
  last_round: number | null;
  /** When that round was due: the result-write guard orders results by (this, last_attempt). */
  last_round_due: Millis | null;
  last_attempt: number | null;
  /** k of "down when k of its locations fail" (migration 041); null: a majority of those reporting. */
  location_quorum: number | null;
  /** Its key in configuration files (migration 018); null until exported or applied. */
  config_key: string | null;
  /** 1 while applied from a configuration document: read-only in the UI. */
  managed_by_config: Generated<number>;
  /** What the last apply wrote, secrets as keyed digests (migration 020): drift is measured from it. */
  config_applied: string | null;
}

export interface CheckResultsTable {
  id: Generated<number>;
  monitor_id: number;
  at: Millis;
  /** 0 up, 1 degraded, 2 down (see db/codecs.ts). */
  outcome: number;
  latency_us: number | null;
  dns_us: number | null;
  connect_us: number | null;
  tls_us: number | null;
  ttfb_us: number | null;
  download_us: number | null;
  http_status: number | null;
  error_code: string | null;
  error_message: string | null;
  response_size: number | null;
  cert_expires_at: Millis | null;
  /** The monitor's round this result belongs to (migration 014); null for older rows. */
  round: number | null;
  /** Where the check ran (migration 041): `local` for the built-in scheduler. */
  location_id: Generated<string>;
  /** A location's round on the server's grid, unique per (monitor, location); null for local rows. */
  location_round: number | null;
}

/** A browser check's measurements beside its result (migration 009). */
export interface BrowserRunsTable {
  result_id: number;
  monitor_id: number;
  at: Millis;
  outcome: number;
  /** JSON of BrowserMeasurements. */
  measurements: string;
  /** JPEG; null once trimmed or for a success that is no longer the latest. */
  screenshot: Uint8Array | null;
}

/**
 * One bucket of a monitor's checks (minute, hour or day; see domain/rollup.ts). Latency and
 * phase figures cover delivered checks only; sums are µs, counts say how many were summed.
 */
export interface RollupTable {
  monitor_id: number;
  /** Start of the bucket, epoch ms. */
  bucket: Millis;
  checks: number;
  up: number;
  degraded: number;
  down: number;
  latency_sum_us: number;
  latency_count: number;
  latency_min_us: number | null;
  latency_max_us: number | null;
  /** LatencySketch bytes; null when latency_count ≤ 2 (min and max are the values). */
  latency_sketch: Uint8Array | null;
  dns_sum_us: number;
  dns_count: number;
  connect_sum_us: number;
  connect_count: number;
  tls_sum_us: number;
  tls_count: number;
  ttfb_sum_us: number;
  ttfb_count: number;
  download_sum_us: number;
  download_count: number;
}

export interface StatusFlipsTable {
  id: Generated<number>;
  monitor_id: number;
  at: Millis;
  from_status: string;
  to_status: string;
  error_code: string | null;
  message: string | null;
}

export interface AvailabilityCorrectionsTable {
  id: Generated<number>;
  monitor_id: number;
  starts_at: Millis;
  ends_at: Millis;
  reason: string;
  /** Who added it, as the audit log names them. */
  created_by: string;
  created_at: Millis;
}

export interface ReportSchedulesTable {
  id: Generated<number>;
  name: string;
  subject_kind: string;
  subject_id: string;
  time_zone: string;
  degraded_is_down: number;
  /** JSON array: 'pdf' and/or 'csv'. */
  formats: string;
  /** JSON arrays of user ids and of email addresses. */
  user_ids: string;
  emails: string;
  enabled: number;
  /** The last month (YYYY-MM) whose deliveries were queued. */
  queued_through: string;
  created_by: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface ReportDeliveriesTable {
  id: Generated<number>;
  schedule_id: number;
  period: string;
  recipient: string;
  attempts: number;
  next_attempt_at: Millis;
  sent_at: Millis | null;
  gave_up_at: Millis | null;
  last_error: string | null;
  created_at: Millis;
}

export interface ReportLinksTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  name: string;
  subject_kind: string;
  subject_id: string;
  range_kind: string;
  period: string | null;
  range_from: string | null;
  range_to: string | null;
  time_zone: string;
  degraded_is_down: number;
  expires_at: Millis | null;
  revoked_at: Millis | null;
  last_viewed_at: Millis | null;
  created_by: string;
  created_at: Millis;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  password_hash: string;
  role: string;
  /** AES-256-GCM ciphertext (lib/crypto.ts) of the confirmed TOTP secret. */
  totp_secret: string | null;
  /** Ciphertext of a secret being enrolled, until a code confirms it. */
  totp_pending_secret: string | null;
  totp_enabled: Generated<number>;
  /** The last 30-second TOTP step accepted; codes for it or earlier are refused. */
  totp_last_step: number | null;
  /** JSON array of SHA-256 hashes of the unused recovery codes. */
  recovery_codes: Generated<string>;
  disabled: Generated<number>;
  created_at: Millis;
  updated_at: Millis;
  last_login_at: Millis | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a database leak yields no usable session. */
  id_hash: string;
  user_id: number;
  created_at: Millis;
  last_seen_at: Millis;
  expires_at: Millis;
  ip: string | null;
  user_agent: string | null;
}

export interface LoginChallengesTable {
  id_hash: string;
  user_id: number;
  expires_at: Millis;
  attempts: Generated<number>;
}

/** A person's passkey (migration 033, ADR 50). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: Millis;
  transports: Generated<string>;
  backed_up: Generated<number>;
  name: string;
  created_at: Millis;
  last_used_at: Millis | null;
}

/** A WebAuthn ceremony started and not yet answered (migration 034). */
export interface WebauthnChallengesTable {
  id_hash: string;
  purpose: string;
  user_id: number | null;
  login_challenge_hash: string | null;
  expires_at: Millis;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  prefix: string;
  key_hash: string;
  role: string;
  user_id: number;
  created_at: Millis;
  expires_at: Millis | null;
  last_used_at: Millis | null;
  revoked_at: Millis | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** `email:<address>` or `ip:<address>`. */
  subject: string;
  at: Millis;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at: Millis;
  actor_type: string;
  actor_id: number | null;
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  summary: string;
}

export interface IncidentsTable {
  id: Generated<number>;
  /** The monitor whose outage opened it; null for declared ones and once that monitor is deleted. */
  monitor_id: number | null;
  /** 1 when Pagewatch opened it on DOWN. */
  automatic: number;
  title: string;
  /** 1 while the title is the one Pagewatch wrote, naming the monitor (public pages rename it). */
  title_auto: Generated<number>;
  state: string;
  severity: string;
  started_at: Millis;
  resolved_at: Millis | null;
  /** The first failing check of the outage. */
  cause_at: Millis | null;
  cause_code: string | null;
  cause_message: string | null;
  created_by: number | null;
  created_at: Millis;
  updated_at: Millis;
}

export interface IncidentMonitorsTable {
  incident_id: number;
  monitor_id: number;
}

export interface IncidentUpdatesTable {
  id: Generated<number>;
  incident_id: number;
  at: Millis;
  state: string;
  message: string;
  public: number;
  automatic: number;
  author_id: number | null;
  author_label: string;
}

export interface MaintenanceWindowsTable {
  id: Generated<number>;
  title: string;
  description: string;
  /** IANA zone name the schedule's wall-clock times are read in. */
  timezone: string;
  /** JSON MaintenanceScope: `{"kind":"all"}` or `{"kind":"monitors","monitorIds":[…]}`. */
  scope: string;
  /** JSON MaintenanceSchedule (once, cron or rrule). */
  schedule: string;
  cancelled_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
  /** Label (email or key name) of who created or last changed it. */
  created_by: string | null;
  updated_by: string | null;
  /** Its key in configuration files (migration 018); null until exported or applied. */
  config_key: string | null;
  /** 1 while applied from a configuration document: read-only in the UI. */
  managed_by_config: Generated<number>;
  /** What the last apply wrote, secrets as keyed digests (migration 020): drift is measured from it. */
  config_applied: string | null;
}

export interface NotificationChannelsTable {
  id: Generated<number>;
  name: string;
  kind: string;
  /** JSON: the kind's `config` (contract channelSchemas). */
  config: string;
  /** The kind's `secrets` as JSON, sealed with the instance key; null when none are set. */
  secrets: string | null;
  /** JSON MessageTemplate; null for the defaults. */
  template: string | null;
  is_default: number;
  enabled: number;
  created_at: Millis;
  updated_at: Millis;
  /** Its key in configuration files (migration 018); null until exported or applied. */
  config_key: string | null;
  /** 1 while applied from a configuration document: read-only in the UI. */
  managed_by_config: Generated<number>;
  /** What the last apply wrote, secrets as keyed digests (migration 020): drift is measured from it. */
  config_applied: string | null;
  /** Channel used once this one has failed `fail_threshold` times in a row (ADR 62). */
  fallback_channel_id?: number | null;
  fail_threshold?: Generated<number>;
  /** Given-up deliveries in a row; 0 after any success. */
  consecutive_failures?: Generated<number>;
  last_error?: string | null;
  /** JSON `{windows, rerouteChannelId}`: its quiet hours (migration 052, ADR 68); null: none. */
  quiet_hours?: string | null;
}

export interface MonitorGroupingTable {
  monitor_id: number;
  tag: string | null;
  window_s: Generated<number>;
}

export interface AlertBatchesTable {
  id: Generated<number>;
  group_key: string;
  phase: string;
  label: string;
  opened_at: number;
  due_at: number;
  items: Generated<number>;
  flushed_at: number | null;
}

export interface AlertBatchItemsTable {
  id: Generated<number>;
  batch_id: number;
  monitor_id: number;
  idempotency_key: string;
  payload: string;
  created_at: number;
}

/** Where a monitor is checked (migration 041); no rows: `local` only. */
export interface MonitorLocationsTable {
  monitor_id: number;
  location_id: string;
}

/** Each location's latest live verdict on a monitor, which the quorum reads (migration 041). */
export interface MonitorLocationVerdictsTable {
  monitor_id: number;
  location_id: string;
  /** The round's due time on the server's grid. */
  round_at: Millis;
  /** The location's own outcome: up, degraded or down. */
  status: string;
  latency_us: number | null;
  checked_at: Millis;
  error_code: string | null;
  error_message: string | null;
}

export interface MonitorParentsTable {
  monitor_id: number;
  parent_id: number;
}

export interface MonitorChannelsTable {
  monitor_id: number;
  channel_id: number;
}

export interface DeliveriesTable {
  id: Generated<number>;
  channel_id: number | null;
  subscriber_id: number | null;
  /** Set for a message to a person's contact method (ADR 60); channel_id is null then. */
  contact_method_id?: number | null;
  monitor_id: number | null;
  /** Deliveries sharing a key (and recipient) are sent in id order: "m:<id>", "i:<id>". */
  order_key: string;
  event_kind: string;
  /** JSON AlertEvent (or a subscriber notice). */
  payload: string;
  /** queued | retrying | sent | failed */
  state: string;
  attempts: number;
  next_attempt_at: Millis | null;
  lease_until: Millis | null;
  leased_by: string | null;
  last_error: string | null;
  created_at: Millis;
  sent_at: Millis | null;
  /** Unique per (event, channel): a second enqueue of the same alert is a no-op; sent as Idempotency-Key. */
  idempotency_key: string | null;
}

export interface StatusPagesTable {
  id: Generated<number>;
  slug: string;
  title: string;
  /** Markdown as typed; rendered sanitised. */
  description: string;
  custom_domain: string | null;
  /** JSON StatusPageShow. */
  show: string;
  /** JSON StatusPageTheme. */
  theme: string;
  /** JSON of StatusPage `subscriptions`. */
  subscriptions: string;
  footer: string;
  /** IANA zone times are named in without the page's script (migration 023). */
  time_zone: Generated<string>;
  published: number;
  logo: Buffer | null;
  logo_type: string | null;
  /** SHA-256 prefix of the logo: its URL changes when it does. */
  logo_hash: string | null;
  created_at: Millis;
  updated_at: Millis;
  /** Its key in configuration files (migration 018); null until exported or applied. */
  config_key: string | null;
  /** 1 while applied from a configuration document: read-only in the UI. */
  managed_by_config: Generated<number>;
  /** What the last apply wrote, secrets as keyed digests (migration 020): drift is measured from it. */
  config_applied: string | null;
}

export interface StatusPageSectionsTable {
  id: Generated<number>;
  page_id: number;
  position: number;
  title: string;
}

export interface StatusPageComponentsTable {
  id: Generated<number>;
  page_id: number;
  section_id: number;
  position: number;
  monitor_id: number;
  display_name: string;
  description: string;
  /** 1: the public page shows each location's status (migration 050, ADR 66). */
  show_locations?: Generated<number>;
}

export interface StatusSubscribersTable {
  id: Generated<number>;
  page_id: number;
  /** email | webhook */
  kind: string;
  address: string;
  /** pending | confirmed | unsubscribed */
  state: string;
  token: string;
  base_url: string;
  created_at: Millis;
  confirmed_at: Millis | null;
  unsubscribed_at: Millis | null;
}

/** A live or recently dead process (migration 015); dead once its heartbeat is older than the expiry. */
export interface ClusterMembersTable {
  /** Random per process start. */
  id: string;
  /** hostname:pid */
  name: string;
  version: string;
  capacity: number;
  roles: string;
  started_at: Millis;
  heartbeat_at: Millis;
  /** JSON MemberLoad, written with the heartbeat; null until the first. */
  load: string | null;
}

/** A push ping or a check-now waiting for the process that owns the monitor's partition. */
export interface CheckRequestsTable {
  id: Generated<number>;
  monitor_id: number;
  partition: number;
  kind: 'check' | 'ping';
  /** JSON CheckRun of a ping. */
  run: string | null;
  at: Millis;
}

/** A partition lease or a singleton lease: owner, fencing epoch, expiry on the database clock. */
export interface ClusterLeaseColumns {
  owner: string | null;
  epoch: Generated<number>;
  expires_at: Generated<Millis>;
  acquired_at: Millis | null;
  /** Who held it before the last acquisition or release (takeovers are counted by it). */
  previous_owner: string | null;
}

export interface ClusterPartitionsTable extends ClusterLeaseColumns {
  id: number;
}

export interface ClusterSingletonsTable extends ClusterLeaseColumns {
  name: string;
}

/** One settings group (migration 017): its JSON as the contract parses it. */
export interface SettingsTable {
  name: string;
  value: string;
  updated_at: Millis;
}

/** A link sent to someone (migration 021): only its token's hash is kept. */
export interface AccountTokensTable {
  id: Generated<number>;
  kind: string;
  token_hash: string;
  user_id: number | null;
  email: string;
  role: string | null;
  created_by: number | null;
  created_by_label: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
  revoked_at: Millis | null;
}

/** Who a deleted account was, for the audit log (migration 021). */
export interface DeletedUsersTable {
  user_id: number;
  email: string;
  name: string;
  deleted_at: Millis;
}

/** Escalation policies (ADR 39). */
export interface EscalationPoliciesTable {
  id: Generated<number>;
  name: string;
  /** JSON EscalationStep[]. */
  steps: string;
  repeat_count: number;
  created_at: Millis;
  updated_at: Millis;
}

/** One outage routed by a policy: the durable escalation timer (ADR 39). */
export interface EscalationsTable {
  id: Generated<number>;
  monitor_id: number;
  policy_id: number | null;
  outage_key: string;
  /** The DOWN AlertEvent as JSON. */
  event: string;
  started_at: Millis;
  next_step: number | null;
  cycle: number;
  next_due_at: Millis | null;
  /** JSON number[] of channels notified. */
  notified: string;
  acked_at: Millis | null;
  acked_by: string | null;
  acked_via: string | null;
  resolved_at: Millis | null;
  /** JSON number[] of people reached through contact methods (ADR 60). */
  notified_users: Generated<string>;
  /** JSON number[] of the contact methods reached; the recovery goes to each. */
  notified_contacts: Generated<string>;
  /** JSON string[]: targets a step could not reach (the monitor's channels heard it instead). */
  warnings: Generated<string>;
}

/** A person's way to be reached (ADR 60); usable once verified. */
export interface ContactMethodsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  label: Generated<string>;
  config: string;
  secrets: string | null;
  verified_at: Millis | null;
  code_hash: string | null;
  code_sent_at: Millis | null;
  code_expires_at: Millis | null;
  code_tries: Generated<number>;
  created_at: Millis;
}

export interface UserQuietHoursTable {
  user_id: number;
  /** JSON QuietHoursWindow[]. */
  windows: string;
  updated_at: Millis;
}

export interface TagPoliciesTable {
  tag: string;
  policy_id: number;
}

/** On-call schedules (ADR 39). */
export interface OncallSchedulesTable {
  id: Generated<number>;
  name: string;
  time_zone: string;
  /** JSON RotationLayerInput[]. */
  layers: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface OncallOverridesTable {
  id: Generated<number>;
  schedule_id: number;
  user_id: number;
  from_at: Millis;
  to_at: Millis;
  created_at: Millis;
}

/** Locations: pools of probes; `local` is the built-in scheduler (migration 039). */
export interface LocationsTable {
  id: string;
  name: string;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
  created_at: Millis;
  offline_since: Millis | null;
  offline_incident_id: number | null;
}

/** A remote probe of a location and what its last heartbeat said (migration 039). */
export interface ProbesTable {
  id: Generated<number>;
  location_id: string;
  name: string;
  created_at: Millis;
  version: string | null;
  host: string | null;
  last_heartbeat_at: Millis | null;
  clock_offset_ms: number | null;
  load: number | null;
  lateness_p99_ms: number | null;
  spool_depth: number | null;
  spool_dropped: number | null;
  revoked_at: Millis | null;
}

/** A probe's tokens, hashed; a rotated one lives until `expires_at` (migration 039). */
export interface ProbeTokensTable {
  id: Generated<number>;
  probe_id: number;
  token_hash: string;
  prefix: string;
  created_at: Millis;
  expires_at: Millis | null;
  revoked_at: Millis | null;
}

export interface SlosTable {
  id: Generated<number>;
  name: string;
  subject_kind: string;
  monitor_id: number | null;
  tag: string | null;
  status_page_id: number | null;
  target: number;
  window: string;
  time_zone: string;
  count_degraded: number;
  exclude_maintenance: number;
  latency_percent: number | null;
  latency_threshold_ms: number | null;
  alerts: number;
  /** The open burn-rate alert's severity ('page' | 'ticket'); null when none is open. */
  alert_state: string | null;
  alert_since: Millis | null;
  created_at: Millis;
  updated_at: Millis;
  /** Configuration as code (migration 054, as 018/020 for the other kinds). */
  config_key: string | null;
  managed_by_config: Generated<number>;
  config_applied: string | null;
}

/** A run of day rollups' merged latency sketch, trusted while its fingerprint matches (ADR 75). */
export interface RunSketchesTable {
  monitor_id: number;
  /** First and last day bucket of the run, epoch ms. */
  run_from: Millis;
  run_to: Millis;
  /** The days' count, checks, latency count, sum, min and max when the sketch was merged. */
  fingerprint: string;
  sketch: Uint8Array;
}

export interface DB {
  locations: LocationsTable;
  probes: ProbesTable;
  probe_tokens: ProbeTokensTable;
  slos: SlosTable;
  oncall_schedules: OncallSchedulesTable;
  oncall_overrides: OncallOverridesTable;
  escalation_policies: EscalationPoliciesTable;
  escalations: EscalationsTable;
  cluster_members: ClusterMembersTable;
  cluster_partitions: ClusterPartitionsTable;
  cluster_singletons: ClusterSingletonsTable;
  check_requests: CheckRequestsTable;
  notification_channels: NotificationChannelsTable;
  monitor_channels: MonitorChannelsTable;
  monitor_parents: MonitorParentsTable;
  monitor_locations: MonitorLocationsTable;
  monitor_location_verdicts: MonitorLocationVerdictsTable;
  monitor_grouping: MonitorGroupingTable;
  alert_batches: AlertBatchesTable;
  alert_batch_items: AlertBatchItemsTable;
  deliveries: DeliveriesTable;
  status_pages: StatusPagesTable;
  status_page_sections: StatusPageSectionsTable;
  status_page_components: StatusPageComponentsTable;
  status_subscribers: StatusSubscribersTable;
  maintenance_windows: MaintenanceWindowsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  api_keys: ApiKeysTable;
  login_failures: LoginFailuresTable;
  audit_events: AuditEventsTable;
  monitors: MonitorsTable;
  check_results: CheckResultsTable;
  browser_runs: BrowserRunsTable;
  rollup_minute: RollupTable;
  rollup_hour: RollupTable;
  rollup_day: RollupTable;
  rollup_run_sketches: RunSketchesTable;
  status_flips: StatusFlipsTable;
  availability_corrections: AvailabilityCorrectionsTable;
  report_schedules: ReportSchedulesTable;
  report_deliveries: ReportDeliveriesTable;
  report_links: ReportLinksTable;
  incidents: IncidentsTable;
  incident_monitors: IncidentMonitorsTable;
  incident_updates: IncidentUpdatesTable;
  settings: SettingsTable;
  account_tokens: AccountTokensTable;
  deleted_users: DeletedUsersTable;
  oidc_providers: OidcProvidersTable;
  oidc_identities: OidcIdentitiesTable;
  oidc_flows: OidcFlowsTable;
  oidc_sessions: OidcSessionsTable;
  contact_methods: ContactMethodsTable;
  user_quiet_hours: UserQuietHoursTable;
  tag_policies: TagPoliciesTable;
}

/** OpenID Connect providers (migration 031, ADR 48); client_secret sealed with the instance key. */
export interface OidcProvidersTable {
  id: Generated<number>;
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  scopes: string;
  email_claim: string;
  name_claim: string;
  groups_claim: string | null;
  default_role: string;
  sign_up: string;
  /** JSON OidcRoleMapping[]. */
  role_mappings: string;
  /** JSON string[]. */
  allowed_domains: string;
  enabled: number;
  created_at: Millis;
  updated_at: Millis;
}

/** A provider's subject linked to an account (migration 031). */
export interface OidcIdentitiesTable {
  provider_id: number;
  subject: string;
  user_id: number;
  created_at: Millis;
}

/** A started OIDC sign-in, spent by its callback (migration 031); code_verifier sealed. */
export interface OidcFlowsTable {
  id_hash: string;
  provider_id: number;
  state: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  return_to: string;
  expires_at: Millis;
}

/** A session begun through OIDC and its sealed ID token, for RP-initiated logout (migration 032). */
export interface OidcSessionsTable {
  session_hash: string;
  provider_id: number;
  id_token: string;
  expires_at: Millis;
}
