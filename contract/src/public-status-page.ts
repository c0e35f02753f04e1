import { z } from 'zod';
import { IncidentSeverity, IncidentState } from './incidents.js';

/**
 * What the public sees of a status page at `/status/<slug>/index.json`: the same view model
 * the HTML is rendered from (server/src/status-pages/view-model.ts, kept equal by a type test).
 */

export const PublicOverallStatus = z.enum([
  'operational',
  'degraded',
  'partial_outage',
  'major_outage',
  'maintenance',
  /** Nothing known to be wrong, but some component's status is unknown (ADR 66). */
  'unknown',
  'no_data',
]);

/** `regional`: failing from some of its locations; `unknown`: too few reported (ADR 58). */
export const PublicComponentStatus = z.enum([
  'up',
  'degraded',
  'down',
  'regional',
  'unknown',
  'maintenance',
  'paused',
  'pending',
]);

export const PublicDay = z.object({
  /** UTC date, YYYY-MM-DD. */
  date: z.string(),
  state: z.enum(['up', 'degraded', 'down', 'maintenance', 'none']),
  uptime: z.number().nullable().describe('Percent of checks that delivered; null without checks'),
  outages: z.number().int(),
});

export const PublicResponseTimes = z.object({
  hours: z
    .array(z.number().nullable())
    .describe('Mean response time per hour over the last 24 hours, in ms, oldest first'),
  avgMs: z.number().nullable(),
  maxMs: z.number().nullable(),
});

/** One calendar month of a component, in the page's zone (ADR 66). */
export const PublicMonth = z.object({
  /** YYYY-MM. */
  month: z.string(),
  uptime: z
    .number()
    .nullable()
    .describe('The one availability computation: maintenance and corrections left out'),
  state: z.enum(['up', 'degraded', 'down', 'none']),
});

/** One location's current verdict on a component (ADR 66). */
export const PublicLocation = z.object({
  name: z.string(),
  status: z.enum(['up', 'degraded', 'down', 'unknown']),
});

export const PublicComponent = z.object({
  name: z.string(),
  description: z.string(),
  status: PublicComponentStatus,
  /** A neutral line while it is down and nobody has published a word about it yet. */
  notice: z.string().optional(),
  uptime: z.number().nullable().describe('Percent over the days shown (90)'),
  latencyMs: z
    .number()
    .nullable()
    .optional()
    .describe('Present only when the page shows current latency'),
  days: z
    .array(PublicDay)
    .nullable()
    .describe('Oldest first; null when the page hides uptime bars'),
  responseTimes: PublicResponseTimes.optional().describe(
    'Present only when the page shows the response time chart',
  ),
  months: z
    .array(PublicMonth)
    .optional()
    .describe('The last 12 calendar months, oldest first; present when the page shows them'),
  locations: z
    .array(PublicLocation)
    .optional()
    .describe('Present when the component shows locations and runs in more than one'),
  failing: z
    .array(z.string())
    .optional()
    .describe('While REGIONAL, the locations failing, when the component shows locations'),
});

export const PublicSection = z.object({
  title: z.string(),
  components: z.array(PublicComponent),
});

export const PublicIncident = z.object({
  id: z.number().int(),
  title: z.string(),
  state: IncidentState,
  severity: IncidentSeverity,
  startedAt: z.string(),
  resolvedAt: z.string().nullable(),
  components: z
    .array(z.string())
    .describe('Names of the affected components, as the page shows them'),
  updates: z
    .array(z.object({ at: z.string(), state: IncidentState, message: z.string() }))
    .describe('Newest first; public updates only'),
});

export const PublicMaintenance = z.object({
  title: z.string(),
  start: z.string(),
  end: z.string(),
  active: z.boolean(),
  components: z.array(z.string()),
});

export const PublicStatusPage = z.object({
  slug: z.string(),
  title: z.string(),
  descriptionHtml: z.string().describe("Sanitised HTML from the page's Markdown description"),
  footer: z.string(),
  logoUrl: z.string().nullable(),
  theme: z.object({ mode: z.enum(['auto', 'light', 'dark']), accent: z.string() }),
  /** IANA zone the HTML page writes its times in for visitors without script. */
  timeZone: z.string(),
  status: PublicOverallStatus,
  generatedAt: z.string(),
  sections: z.array(PublicSection),
  activeIncidents: z.array(PublicIncident),
  maintenance: z.array(PublicMaintenance),
  pastIncidents: z
    .array(PublicIncident)
    .describe('Resolved or still open, started within the last 14 days'),
  subscribeUrl: z.string().nullable().describe('Where visitors subscribe, when the page allows it'),
});
export type PublicStatusPage = z.infer<typeof PublicStatusPage>;
