import {
  badgePath,
  type BadgeKind,
  type BadgeStyle,
  type BadgeWindow,
  type MonitorBadges,
} from '@pagewatch/contract';

export const windowLabels: Record<BadgeWindow, string> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
};

/** What the builder was asked for. */
export interface BadgeChoice {
  shows: 'status' | 'uptime';
  window: BadgeWindow;
  style: BadgeStyle;
  /** Blank: the name the status page gives the monitor. */
  label: string;
}

export interface BadgeSnippets {
  /** Same-origin path, for the preview (the app's CSP loads images from itself only). */
  path: string;
  url: string;
  alt: string;
  markdown: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const escapeMarkdown = (s: string) => s.replace(/[\\[\]]/g, (c) => `\\${c}`);

/** The badge's address and ready-to-paste Markdown and HTML; absolute on the public URL. */
export function badgeSnippets(
  monitor: { id: number; name: string },
  info: Pick<MonitorBadges, 'publicUrl' | 'label'>,
  choice: BadgeChoice,
  origin: string,
): BadgeSnippets {
  const kind: BadgeKind = choice.shows === 'status' ? 'status' : `uptime-${choice.window}`;
  const label = choice.label.trim();
  const path = badgePath(monitor.id, kind, {
    style: choice.style,
    ...(label ? { label } : {}),
  });
  const url = new URL(path, info.publicUrl ?? origin).href;
  const name = label || info.label || monitor.name;
  const alt =
    choice.shows === 'status'
      ? `${name} status`
      : `${name} uptime (${windowLabels[choice.window]})`;
  return {
    path,
    url,
    alt,
    markdown: `![${escapeMarkdown(alt)}](${url})`,
    html: `<img src="${escapeHtml(url)}" alt="${escapeHtml(alt)}">`,
  };
}
