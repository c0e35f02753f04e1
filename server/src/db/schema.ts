import type { Generated } from 'kysely';

/** Epoch milliseconds; int8 in PostgreSQL, parsed back to number. */
type Millis = number;

export interface MonitorsTable {
  id: Generated<number>;
  type: string;
  name: string;
  /** JSON of the type-specific settings (url, method, headers, keyword…). */
  config: string;
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
  created_at: Millis;
  updated_at: Millis;
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
}

export interface RollupHourTable {
  monitor_id: number;
  bucket: Millis;
  checks: number;
  up: number;
  degraded: number;
  down: number;
  latency_sum_us: number;
  latency_count: number;
  latency_min_us: number | null;
  latency_max_us: number | null;
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

export interface DB {
  monitors: MonitorsTable;
  check_results: CheckResultsTable;
  rollup_hour: RollupHourTable;
  status_flips: StatusFlipsTable;
}
