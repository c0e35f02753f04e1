import type { CheckErrorCode } from '@pagewatch/contract';

/** Short names for the check failure codes of SPEC §8; the server's message gives the details. */
export const checkErrorLabel: Record<CheckErrorCode, string> = {
  dns_not_found: 'DNS name not found',
  dns_timeout: 'DNS timed out',
  dns_server_failure: 'DNS server failed',
  dns_unexpected_answer: 'Unexpected DNS answer',
  connect_refused: 'Connection refused',
  connect_timeout: 'Connection timed out',
  tls_handshake_failed: 'TLS handshake failed',
  tls_cert_expired: 'Certificate expired',
  tls_cert_untrusted: 'Certificate not trusted',
  tls_hostname_mismatch: 'Certificate name mismatch',
  tls_cert_expiring: 'Certificate expiring soon',
  timeout: 'Timed out',
  http_status: 'Unexpected HTTP status',
  keyword_missing: 'Keyword missing',
  keyword_present: 'Keyword present',
  json_assertion: 'JSON assertion failed',
  regex_assertion: 'Pattern assertion failed',
  header_assertion: 'Header assertion failed',
  response_too_large: 'Response too large',
  response_too_small: 'Response too small',
  too_many_redirects: 'Too many redirects',
  heartbeat_missed: 'Heartbeat missed',
  browser_load_failed: 'Page failed to load',
  browser_js_error: 'JavaScript error',
  browser_element_missing: 'Element missing',
  browser_resource_failed: 'Resource failed',
  browser_unavailable: 'Browser not set up',
  browser_crashed: 'Browser crashed',
  degraded_latency: 'Slower than threshold',
  connection_reset: 'Connection reset',
  protocol_error: 'Protocol error',
  internal_error: 'Internal checker error',
  overloaded: 'Pagewatch overloaded',
  push_reported_down: 'Job reported a failure',
  auth_failed: 'Login refused',
  query_failed: 'Query failed',
  unexpected_value: 'Unexpected value',
};

export function errorLabel(code: string | null): string | null {
  if (code === null) return null;
  return (checkErrorLabel as Record<string, string>)[code] ?? code.replace(/_/g, ' ');
}
