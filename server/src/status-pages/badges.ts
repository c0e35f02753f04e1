import { createHash } from 'node:crypto';
import type { BadgeOptions, BadgeWindow } from '@pagewatch/contract';
import { makeBadge } from 'badge-maker';
import type { ComponentStatus } from './view-model.js';
import { formatPercent } from './render/labels.js';

/** What a badge says, whatever it looks like: cached per monitor and window, drawn per style. */
export interface BadgeFacts {
  label: string;
  message: string;
  color: string;
}

const statusColour: Record<ComponentStatus, string> = {
  up: '#2da44e',
  degraded: '#d4a72c',
  down: '#cf222e',
  regional: '#d4a72c',
  unknown: '#8c959f',
  maintenance: '#0969da',
  paused: '#8c959f',
  pending: '#8c959f',
};

/** Green from 99.9 %, yellow-green from 99 %, yellow from 95 %, red below; grey without data. */
export function uptimeColour(p: number | null): string {
  if (p === null) return '#8c959f';
  if (p >= 99.9) return '#2da44e';
  if (p >= 99) return '#97ca00';
  if (p >= 95) return '#d4a72c';
  return '#cf222e';
}

export function statusFacts(label: string, status: ComponentStatus): BadgeFacts {
  return { label, message: status, color: statusColour[status] };
}

export function uptimeFacts(label: string, window: BadgeWindow, uptime: number | null) {
  return {
    label: `${label} ${window}`,
    message: formatPercent(uptime),
    color: uptimeColour(uptime),
  };
}

/** The SVG; a `label` option replaces the page's name for the monitor (badge-maker escapes it). */
export function drawBadge(facts: BadgeFacts, options: BadgeOptions): string {
  return makeBadge({
    label: options.label ?? facts.label,
    message: facts.message,
    color: facts.color,
    style: options.style,
    ...(options.labelColor ? { labelColor: options.labelColor } : {}),
  });
}

/**
 * The badge's own CSP: it loads nothing and runs nothing; only its inline stylesheet applies
 * (the social style has one), by hash. The app's policy would block that stylesheet.
 */
export function badgeCsp(svg: string): string {
  const style = /<style>([^<]*)<\/style>/.exec(svg)?.[1];
  const hash = style && createHash('sha256').update(style).digest('base64');
  return ["default-src 'none'", ...(hash ? [`style-src 'sha256-${hash}'`] : [])].join('; ');
}
