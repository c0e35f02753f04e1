import type { ImportItem, ImportItemKind } from '@pagewatch/contract';

/** Keys derived from Kuma's ids, so a second import of the same data finds what the first made. */
export const kumaKeys = {
  monitor: (id: number) => `kuma-monitor-${id}`,
  /** The TLS monitor made for an HTTPS monitor whose certificate expiry Kuma watched. */
  certificate: (id: number) => `kuma-monitor-${id}-tls`,
  channel: (id: number) => `kuma-notification-${id}`,
  statusPage: (id: number) => `kuma-status-page-${id}`,
  maintenance: (id: number) => `kuma-maintenance-${id}`,
};

export function item(
  kind: ImportItemKind,
  source: string,
  name: string,
  key: string | null,
  notes: string[] = [],
): ImportItem {
  return { kind, source, name, key, outcome: 'created', reason: null, notes };
}

export function skipped(
  kind: ImportItemKind,
  source: string,
  name: string,
  reason: string,
  notes: string[] = [],
): ImportItem {
  return { kind, source, name, key: null, outcome: 'skipped', reason, notes };
}

export function merged(
  kind: ImportItemKind,
  source: string,
  name: string,
  reason: string,
): ImportItem {
  return { kind, source, name, key: null, outcome: 'merged', reason, notes: [] };
}

export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
