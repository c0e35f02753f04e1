import {
  currentZoneName,
  type StatusPage,
  type StatusPageInput,
  type StatusPageShow,
  type StatusPageTheme,
} from '@pagewatch/contract';

/** A component being edited; `key` is stable across moves (React keys, drag and drop). */
export interface DraftComponent {
  key: string;
  monitorId: number;
  monitorName: string;
  displayName: string;
  description: string;
  /** The public page shows each location's status under it (ADR 66). */
  showLocations: boolean;
}

export interface DraftSection {
  key: string;
  title: string;
  components: DraftComponent[];
}

/** The editor's state: the API input plus what only the form needs. */
export interface Draft {
  show: StatusPageShow;
  theme: StatusPageTheme;
  subscriptions: StatusPage['subscriptions'];
  published: boolean;
  /** IANA zone of the page's times for visitors without script. */
  timeZone: string;
  footer: string;
  title: string;
  slug: string;
  /** Whether the slug still follows the title (new pages until someone types a slug). */
  slugFromTitle: boolean;
  description: string;
  customDomain: string;
  sections: DraftSection[];
}

let seq = 0;
export const newKey = (prefix: string) => `${prefix}${++seq}`;

/** A URL-friendly slug from a title: "Acme Cloud — EU" → "acme-cloud-eu". */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

export function emptyDraft(): Draft {
  return {
    title: '',
    slug: '',
    slugFromTitle: true,
    description: '',
    customDomain: '',
    sections: [{ key: newKey('s'), title: 'Services', components: [] }],
    show: { uptimeBars: true, latencyChart: false, currentLatency: false, monthlyUptime: false },
    theme: { mode: 'auto', accent: '#2563eb' },
    footer: '',
    published: false,
    // The editor's own zone: most pages speak to people where their team is.
    timeZone: currentZoneName(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    subscriptions: { email: false, webhook: false, emailChannelId: null },
  };
}

export function draftFromPage(page: StatusPage): Draft {
  return {
    title: page.title,
    slug: page.slug,
    slugFromTitle: false,
    description: page.description,
    customDomain: page.customDomain ?? '',
    sections: page.sections.map((s) => ({
      key: newKey('s'),
      title: s.title,
      components: s.components.map((c) => ({ ...c, key: newKey('c') })),
    })),
    show: { ...page.show },
    theme: { ...page.theme },
    footer: page.footer,
    published: page.published,
    timeZone: page.timeZone,
    subscriptions: { ...page.subscriptions },
  };
}

/** What the API takes: the form-only bits dropped, an empty domain meaning none. */
export function toInput(d: Draft): StatusPageInput {
  return {
    title: d.title,
    slug: d.slug.trim(),
    description: d.description,
    customDomain: d.customDomain.trim() === '' ? null : d.customDomain.trim(),
    sections: d.sections.map((s) => ({
      title: s.title,
      components: s.components.map((c) => ({
        monitorId: c.monitorId,
        displayName: c.displayName,
        description: c.description,
        showLocations: c.showLocations,
      })),
    })),
    show: d.show,
    theme: d.theme,
    footer: d.footer,
    published: d.published,
    timeZone: d.timeZone,
    subscriptions: d.subscriptions,
  };
}

/** Where a component is: section and position. */
export interface Spot {
  section: number;
  index: number;
}

export function findComponent(d: Draft, key: string): Spot | null {
  for (const [section, s] of d.sections.entries()) {
    const index = s.components.findIndex((c) => c.key === key);
    if (index >= 0) return { section, index };
  }
  return null;
}

/** Moves a component to `to` (an index in the target section as it is after removal). */
export function moveComponent(d: Draft, key: string, to: Spot): Draft {
  const from = findComponent(d, key);
  if (!from) return d;
  const sections = d.sections.map((s) => ({ ...s, components: [...s.components] }));
  const [moved] = sections[from.section]!.components.splice(from.index, 1);
  const target = sections[to.section];
  if (!moved || !target) return d;
  target.components.splice(Math.max(0, Math.min(to.index, target.components.length)), 0, moved);
  return { ...d, sections };
}

/**
 * One keyboard step up or down: within the section, or across the edge into the end of the
 * previous section (or the start of the next). Null when there is nowhere to go.
 */
export function stepSpot(d: Draft, from: Spot, step: -1 | 1): Spot | null {
  const size = d.sections[from.section]?.components.length ?? 0;
  const index = from.index + step;
  if (index >= 0 && index < size) return { section: from.section, index };
  const section = from.section + step;
  const next = d.sections[section];
  if (!next) return null;
  return { section, index: step < 0 ? next.components.length : 0 };
}

export function moveSection(d: Draft, from: number, to: number): Draft {
  if (to < 0 || to >= d.sections.length || from === to) return d;
  const sections = [...d.sections];
  const [moved] = sections.splice(from, 1);
  if (!moved) return d;
  sections.splice(to, 0, moved);
  return { ...d, sections };
}
