import { makeBadge } from 'badge-maker';
import type { ComponentStatus } from './view-model.js';
import { componentLabel, formatPercent } from './render/labels.js';

export const badgeWindows = ['24h', '7d', '30d', '90d'] as const;
export type BadgeWindow = (typeof badgeWindows)[number];

const statusColour: Record<ComponentStatus, string> = {
  up: '#2da44e',
  degraded: '#d4a72c',
  down: '#cf222e',
  maintenance: '#0969da',
  paused: '#8c959f',
  pending: '#8c959f',
};

const statusText: Record<ComponentStatus, string> = {
  ...componentLabel,
  up: 'up',
  degraded: 'degraded',
  down: 'down',
  maintenance: 'maintenance',
  paused: 'paused',
  pending: 'pending',
};

/** Green from 99.9 %, yellow-green from 99 %, yellow from 95 %, red below; grey without data. */
export function uptimeColour(p: number | null): string {
  if (p === null) return '#8c959f';
  if (p >= 99.9) return '#2da44e';
  if (p >= 99) return '#97ca00';
  if (p >= 95) return '#d4a72c';
  return '#cf222e';
}

export function statusBadge(label: string, status: ComponentStatus): string {
  return makeBadge({ label, message: statusText[status], color: statusColour[status] });
}

export function uptimeBadge(label: string, window: BadgeWindow, uptime: number | null): string {
  return makeBadge({
    label: `${label} ${window}`,
    message: formatPercent(uptime),
    color: uptimeColour(uptime),
  });
}
