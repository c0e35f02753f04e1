import { z } from 'zod';
import { DomainRegistration } from './domain-expiry.js';

export const CheckOutcome = z.enum(['up', 'degraded', 'down']);
export type CheckOutcome = z.infer<typeof CheckOutcome>;

/** Stable check failure codes of SPEC §8. */
export const CheckErrorCode = z.enum([
  'dns_not_found',
  'dns_timeout',
  /** The resolver answered SERVFAIL or REFUSED, or could not be reached. */
  'dns_server_failure',
  /** The answers did not include the expected values. */
  'dns_unexpected_answer',
  'connect_refused',
  'connect_timeout',
  'tls_handshake_failed',
  'tls_cert_expired',
  'tls_cert_untrusted',
  'tls_hostname_mismatch',
  /** The certificate is valid but expires within the monitor's warning days (degraded). */
  'tls_cert_expiring',
  'timeout',
  'http_status',
  'keyword_missing',
  'keyword_present',
  'json_assertion',
  'regex_assertion',
  'header_assertion',
  'response_too_large',
  'response_too_small',
  'too_many_redirects',
  'heartbeat_missed',
  'browser_load_failed',
  'browser_js_error',
  /** A browser check's required or awaited CSS selector never showed. */
  'browser_element_missing',
  /** A subresource of the page failed (status ≥ 400 or network error): degrades. */
  'browser_resource_failed',
  /** No Chromium could be started: a setup problem of Pagewatch, shown on browser monitors. */
  'browser_unavailable',
  /** Chromium died during the check; it is restarted for the next one. */
  'browser_crashed',
  'degraded_latency',
  'connection_reset',
  'protocol_error',
  'internal_error',
  /** Pagewatch itself ran out of resources (file descriptors, memory): never the target's fault. */
  'overloaded',
  // A push monitor's job said it failed (`status=down`, `/fail` or a non-zero exit status).
  'push_reported_down',
  /** The domain's registration has expired (RDAP). */
  'domain_expired',
  /** The registration expires within the monitor's warning days (degraded). */
  'domain_expiring',
  /** The registry has no such domain: not registered (any more). */
  'domain_not_found',
  /** No RDAP service is known for the domain's TLD, or it is not a registrable name. */
  'rdap_unsupported',
  /** The RDAP answer was not RDAP JSON, or carried no expiration date. */
  'rdap_bad_answer',
  /** The RDAP service did not answer within the timeout. */
  'rdap_timeout',
  /** The RDAP service said 429 Too Many Requests; asked again after its Retry-After. */
  'rdap_rate_limited',
  /** The RDAP service could not be reached or answered with a server error. */
  'rdap_unavailable',
  /** No way to send ICMP here (no ping binary, no raw socket, ping_group_range closed): setup. */
  'ping_unavailable',
  /** Echo requests went unanswered: all of them is down, more than the monitor allows degrades. */
  'packet_loss',
  /** The gRPC health service answered, but not SERVING (or does not know the service). */
  'grpc_not_serving',
  /** The WebSocket peer closed with a code other than 1000, or before the exchange ended. */
  'websocket_closed',
  /** The server refused the user name or password (databases, brokers, mail). */
  'auth_failed',
  /** The monitor's query or command returned an error instead of a value. */
  'query_failed',
  /** The first value of the query's or command's answer was not the expected one. */
  'unexpected_value',
  /** A RabbitMQ monitor's queue does not exist (passive declare answered 404). */
  'queue_missing',
  /** A RabbitMQ monitor's queue holds more ready messages than its maximum depth. */
  'queue_too_deep',
  /** A mail server did not offer STARTTLS or an expected EHLO capability. */
  'capability_missing',
  /**
   * The check failed while every canary target was unreachable too (ADR 41): Pagewatch had
   * lost its own network, so the result is unknown; status and alerts are left as they were.
   */
  'connectivity_unknown',
  /** A group monitor's rule failed: too many of its members are down (ADR 47). */
  'group_members_down',
  /** A group monitor's rule held, but a member is degraded or down (ADR 47). */
  'group_members_degraded',
]);
export type CheckErrorCode = z.infer<typeof CheckErrorCode>;

/** Milliseconds spent in each delivery phase; null when the phase did not happen (e.g. TLS on http). */
export const Phases = z.object({
  dns: z.number().nullable(),
  connect: z.number().nullable(),
  tls: z.number().nullable(),
  ttfb: z.number().nullable(),
  download: z.number().nullable(),
});
export type Phases = z.infer<typeof Phases>;

export const CheckResult = z.object({
  id: z.number().int(),
  monitorId: z.number().int(),
  at: z.iso.datetime(),
  outcome: CheckOutcome,
  latencyMs: z.number().nullable(),
  phases: Phases,
  httpStatus: z.number().int().nullable(),
  errorCode: CheckErrorCode.nullable(),
  errorMessage: z.string().nullable(),
  responseSize: z.number().int().nullable(),
  certExpiresAt: z.iso.datetime().nullable(),
});
export type CheckResult = z.infer<typeof CheckResult>;

export const CheckPage = z.object({
  items: z.array(CheckResult),
  /** Pass as `before` to get the next (older) page; null on the last page. */
  nextCursor: z.number().int().nullable(),
});
export type CheckPage = z.infer<typeof CheckPage>;

export const CheckListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().positive().optional(),
});

/** The certificate a TLS peer presented, as every TLS-speaking check captures it. */
export const Certificate = z.object({
  subject: z.string().nullable(),
  issuer: z.string().nullable(),
  /** Subject alternative names, e.g. `DNS:example.com`, `IP Address:10.0.0.1`. */
  sans: z.array(z.string()),
  notBefore: z.iso.datetime().nullable(),
  notAfter: z.iso.datetime().nullable(),
  /** SHA-256 fingerprint, colon-separated hex. */
  fingerprint256: z.string().nullable(),
  /** Whether the chain verified against the trusted roots for the name asked for. */
  trusted: z.boolean(),
  /** The verification failure OpenSSL reported, when not trusted. */
  verifyError: z.string().nullable(),
});
export type Certificate = z.infer<typeof Certificate>;

/** One assertion of a check as evaluated: always expected vs actual, so a failure explains itself. */
export const AssertionResult = z.object({
  /** The assertion kind, e.g. `status`, `keyword`, `regex`, `json`, `header`, `latency`, `size`. */
  kind: z.string(),
  /** What it looked at, in words: `status code`, `$.data.ok`, `header content-type`. */
  target: z.string(),
  expected: z.string(),
  actual: z.string().nullable(),
  passed: z.boolean(),
  /** A failed soft assertion degrades the monitor instead of taking it down. */
  soft: z.boolean(),
});
export type AssertionResult = z.infer<typeof AssertionResult>;

/** What the last check saw beyond the result row: kept for the monitor page, not per result. */
export const CheckDetails = z.object({
  certificate: Certificate.nullable(),
  assertions: z.array(AssertionResult),
  /** Domain expiry checks and HTTP checks with the option: the registration looked up. */
  domain: DomainRegistration.nullable().optional(),
});
export type CheckDetails = z.infer<typeof CheckDetails>;
