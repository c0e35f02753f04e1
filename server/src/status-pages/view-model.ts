import type { IncidentSeverity, IncidentState } from '@pagewatch/contract';

/**
 * What the public sees of a status page: its own type, built field by field by the presenter,
 * never a monitor or page record spread into it. Rendered as HTML, served as index.json.
 */

/** `unknown`: nothing known to be wrong, but some component's status is unknown (ADR 66). */
export type OverallStatus =
  | 'operational'
  | 'degraded'
  | 'partial_outage'
  | 'major_outage'
  | 'maintenance'
  | 'unknown'
  | 'no_data';

/** `regional`: failing from some of its locations, not enough to be down (ADR 58). */
export type ComponentStatus =
  'up' | 'degraded' | 'down' | 'regional' | 'unknown' | 'maintenance' | 'paused' | 'pending';
export type DayState = 'up' | 'degraded' | 'down' | 'maintenance' | 'none';

export interface PublicDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  state: DayState;
  /** Percent of checks that delivered; null without checks. */
  uptime: number | null;
  outages: number;
}

export interface PublicComponent {
  name: string;
  description: string;
  status: ComponentStatus;
  /**
   * A neutral public line while the component is down and nobody has published a word about
   * it yet ("We're looking into it."); absent otherwise.
   */
  notice?: string;
  /** Over the days shown (90). */
  uptime: number | null;
  /** Present only when the page shows current latency. */
  latencyMs?: number | null;
  /** Oldest first; null when the page hides uptime bars. */
  days: PublicDay[] | null;
  /** Present only when the page shows the response time chart. */
  responseTimes?: PublicResponseTimes;
  /** The last 12 calendar months, oldest first: only when the page shows them. */
  months?: PublicMonth[];
  /** Only when the component shows locations and runs in more than one. */
  locations?: PublicLocation[];
  /** While REGIONAL, the failing locations' names, when the component shows locations. */
  failing?: string[];
}

/** One calendar month of a component in the page's zone: the one computation's figure. */
export interface PublicMonth {
  /** YYYY-MM. */
  month: string;
  uptime: number | null;
  state: 'up' | 'degraded' | 'down' | 'none';
}

/** One location's current verdict; a stale or missing one is unknown, never up. */
export interface PublicLocation {
  name: string;
  status: 'up' | 'degraded' | 'down' | 'unknown';
}

/** Mean response time per hour over the last 24 hours, in whole ms, oldest first. */
export interface PublicResponseTimes {
  /** null for an hour without a timed check. */
  hours: (number | null)[];
  /** Over the 24 hours, weighted by checks. */
  avgMs: number | null;
  /** The slowest hour's mean. */
  maxMs: number | null;
}

export interface PublicSection {
  title: string;
  components: PublicComponent[];
}

export interface PublicUpdate {
  at: string;
  state: IncidentState;
  message: string;
}

export interface PublicIncident {
  id: number;
  title: string;
  state: IncidentState;
  severity: IncidentSeverity;
  startedAt: string;
  resolvedAt: string | null;
  /** Names of the affected components, as the page shows them. */
  components: string[];
  /** Newest first; public updates only. */
  updates: PublicUpdate[];
}

export interface PublicMaintenance {
  title: string;
  start: string;
  end: string;
  active: boolean;
  components: string[];
}

export interface PublicStatusPage {
  slug: string;
  title: string;
  /** Sanitised HTML from the page's Markdown description. */
  descriptionHtml: string;
  footer: string;
  logoUrl: string | null;
  theme: { mode: 'auto' | 'light' | 'dark'; accent: string };
  /** IANA zone the page writes its times in without script (the script uses the visitor's). */
  timeZone: string;
  status: OverallStatus;
  generatedAt: string;
  sections: PublicSection[];
  activeIncidents: PublicIncident[];
  maintenance: PublicMaintenance[];
  /** Resolved or still open, started within the last 14 days (90 on the history page). */
  pastIncidents: PublicIncident[];
  /** Where visitors subscribe, when the page allows it. */
  subscribeUrl: string | null;
}

/** Links on a page: `/status/<slug>` on the app's host, `` on the page's own domain. */
export interface PageLinks {
  base: string;
}
