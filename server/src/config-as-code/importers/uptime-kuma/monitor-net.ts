import { defaults, limits } from '@pagewatch/contract';
import { clamp } from './keys.js';
import { Unmappable } from './monitor-http.js';
import type { KumaMonitor } from './source.js';

/** Kuma's `ip_family` as Pagewatch's; anything else is either family. */
const familyOf = (value: string | null): 'auto' | 'ipv4' | 'ipv6' =>
  value === 'ipv4' || value === '4' ? 'ipv4' : value === 'ipv6' || value === '6' ? 'ipv6' : 'auto';

/**
 * A Kuma ping monitor: the host and its packet count (Kuma 1.x sent one). Kuma's per-request
 * timeout has no counterpart: every reply must come within the monitor's timeout.
 */
export function pingFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  if (m.upsideDown) {
    throw new Unmappable('upside-down mode of a ping monitor has no Pagewatch equivalent');
  }
  const asked = m.pingCount ?? 1;
  let count = clamp(Math.round(asked), 1, limits.pingCountMax);
  if (count !== asked) notes.push(`Echo requests ${asked} → ${count} (1 to 20)`);
  // All packets must leave within the timeout (the import's timeout, 48 s by Kuma's default).
  const timeoutMs = Math.max(1, Math.round(m.timeout ?? 48)) * 1000;
  let interval: number = defaults.pingIntervalMs;
  if ((count - 1) * interval >= timeoutMs) interval = limits.pingIntervalMinMs;
  while (count > 1 && (count - 1) * interval >= timeoutMs) count--;
  return {
    type: 'ping',
    host: m.hostname ?? '',
    ipFamily: familyOf(m.ipFamily),
    count,
    packetIntervalMs: interval,
  };
}

/** `host:port`, `[v6]:port`, with or without a scheme, as Kuma's gRPC URL field takes it. */
function hostPortOf(url: string): { host: string; port: number } | null {
  const bare = url
    .trim()
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/.*$/, '');
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(bare);
  if (match === null) return null;
  return { host: match[1] ?? match[2] ?? '', port: Number(match[3]) };
}

/**
 * Kuma's gRPC keyword monitor, when it calls the standard health service: Pagewatch asks the
 * same service and expects SERVING instead of a keyword. Any other method cannot be called
 * without its .proto, which Pagewatch does not compile.
 */
export function grpcFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  const service = (m.grpcServiceName ?? '').trim();
  const method = (m.grpcMethod ?? '').trim();
  const isHealth = /(^|\.)Health$/.test(service) && /^check$/i.test(method);
  if (!isHealth) {
    throw new Unmappable(
      `it calls ${service || '(no service)'}/${method || '(no method)'}; Pagewatch's gRPC monitor checks the standard health service (grpc.health.v1.Health/Check) only`,
    );
  }
  if (m.upsideDown) {
    throw new Unmappable('upside-down mode of a gRPC monitor has no Pagewatch equivalent');
  }
  const target = hostPortOf(m.grpcUrl ?? '');
  if (target === null) throw new Unmappable(`its gRPC URL "${m.grpcUrl ?? ''}" has no host:port`);
  let asked = '';
  try {
    const body = JSON.parse(m.grpcBody ?? '{}') as { service?: unknown };
    if (typeof body.service === 'string') asked = body.service;
  } catch {
    notes.push('The request body was not JSON; the whole server’s health is asked for');
  }
  if ((m.keyword ?? '') !== '') {
    notes.push(`Kuma looked for "${m.keyword ?? ''}" in the answer; Pagewatch expects SERVING`);
  }
  return {
    type: 'grpc',
    host: target.host,
    port: target.port,
    service: asked,
    tls: m.grpcEnableTls === true,
  };
}

/** Kuma's WebSocket upgrade monitor: upgrade and close with 1000, as Pagewatch's does. */
export function websocketFields(m: KumaMonitor, notes: string[]): Record<string, unknown> {
  if (m.upsideDown) {
    throw new Unmappable('upside-down mode of a WebSocket monitor has no Pagewatch equivalent');
  }
  if (m.wsIgnoreSecWebsocketAcceptHeader) {
    notes.push('Pagewatch always checks the Sec-WebSocket-Accept header');
  }
  return { type: 'websocket', url: (m.url ?? '').trim(), ignoreTls: m.ignoreTls };
}
