import type { AlertEvent } from '@pagewatch/contract';
import { groupTitle, NAMES_SHOWN } from '../../domain/alert-groups/index.js';
import type { Escape } from './escape.js';
import type { Tone } from './format.js';

/** The wording of a grouped alert (ADR 42), or null for any other event. */
export function groupWording(
  e: AlertEvent,
): { title: string; tone: Tone; summary: (x: Escape) => string } | null {
  const title = groupTitle(e);
  if (!title || !e.group) return null;
  const g = e.group;
  const up = e.kind === 'monitor.up';
  return {
    title,
    tone: up ? 'ok' : 'critical',
    summary: (x) => {
      const names = g.members.slice(0, NAMES_SHOWN).map((m) => x(m.name));
      const more = g.members.length - names.length;
      const list = names.join(', ') + (more > 0 ? ` and ${more} more` : '');
      const what = up ? 'are up again' : 'are down';
      return `${g.members.length} monitors (${x(g.label)}) ${what}: ${list}.`;
    },
  };
}
