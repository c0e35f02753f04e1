import { z } from 'zod';
import { CheckErrorCode } from './checks.js';

export const incidentLimits = {
  titleMax: 200,
  messageMax: 5000,
  monitorsMax: 100,
} as const;

/** SPEC §4: investigating → identified → monitoring → resolved. */
export const incidentStates = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const IncidentState = z.enum(incidentStates);
export type IncidentState = z.infer<typeof IncidentState>;

export const IncidentSeverity = z.enum(['minor', 'major', 'critical']);
export type IncidentSeverity = z.infer<typeof IncidentSeverity>;

/** The first failing check of the streak that took a monitor down. */
export const IncidentCause = z.object({
  at: z.iso.datetime(),
  code: CheckErrorCode.nullable(),
  message: z.string().nullable(),
});
export type IncidentCause = z.infer<typeof IncidentCause>;

export const IncidentUpdate = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  state: IncidentState,
  message: z.string(),
  /** Shown on public status pages; private updates stay with the team. */
  public: z.boolean(),
  /** Who wrote it; `id` null for updates written by Pagewatch itself or by a deleted person. */
  author: z.object({ id: z.number().int().nullable(), label: z.string() }),
  /** True for updates Pagewatch wrote (opened on DOWN, resolved on recovery). */
  automatic: z.boolean(),
});
export type IncidentUpdate = z.infer<typeof IncidentUpdate>;

export const IncidentMonitorRef = z.object({ id: z.number().int(), name: z.string() });
export type IncidentMonitorRef = z.infer<typeof IncidentMonitorRef>;

export const Incident = z.object({
  id: z.number().int(),
  title: z.string(),
  state: IncidentState,
  severity: IncidentSeverity,
  /** Opened by Pagewatch when a monitor went down (as opposed to declared by a person). */
  automatic: z.boolean(),
  /**
   * The monitor whose outage opened an automatic incident; null for declared incidents and
   * after that monitor was deleted (the title keeps its name).
   */
  monitorId: z.number().int().nullable(),
  /** Monitors the incident affects (the outage's monitor, or those named when declaring). */
  monitors: z.array(IncidentMonitorRef),
  startedAt: z.iso.datetime(),
  resolvedAt: z.iso.datetime().nullable(),
  cause: IncidentCause.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Incident = z.infer<typeof Incident>;

export const IncidentDetail = Incident.extend({
  /** Newest first. */
  updates: z.array(IncidentUpdate),
});
export type IncidentDetail = z.infer<typeof IncidentDetail>;

export const IncidentPage = z.object({
  items: z.array(Incident),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type IncidentPage = z.infer<typeof IncidentPage>;

/** `open` is every state but resolved; a state by name narrows to it. */
export const IncidentListFilter = z.enum(['open', 'resolved', 'all', ...incidentStates]);
export type IncidentListFilter = z.infer<typeof IncidentListFilter>;

/** Open incidents come first, then the rest by start time, newest first. */
export const IncidentListQuery = z.strictObject({
  state: IncidentListFilter.default('all'),
  monitorId: z.coerce.number().int().positive().optional(),
  /** Case-insensitive text in the title. */
  q: z.string().trim().max(200).optional(),
  /** Started at or after this instant. */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Started before this instant. */
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z
    .string()
    .regex(/^[01]\.\d{1,16}\.\d{1,16}$/, 'Use the nextCursor of the previous page')
    .optional(),
});
export type IncidentListQuery = z.infer<typeof IncidentListQuery>;

export const IncidentIdParams = z.strictObject({ id: z.coerce.number().int().positive() });

const Title = z
  .string()
  .trim()
  .min(1, 'Give the incident a title')
  .max(incidentLimits.titleMax, 'Titles are limited to 200 characters');

const Message = z
  .string()
  .trim()
  .min(1, 'Write what is happening')
  .max(incidentLimits.messageMax, 'Updates are limited to 5,000 characters');

const MonitorIds = z
  .array(z.number().int().positive())
  .max(incidentLimits.monitorsMax, 'An incident can name up to 100 monitors')
  .refine((ids) => new Set(ids).size === ids.length, 'Each monitor can be named once');

/** What a person sends to declare an incident. */
export const IncidentCreate = z.strictObject({
  title: Title,
  severity: IncidentSeverity.default('major'),
  state: IncidentState.exclude(['resolved']).default('investigating'),
  /** The first update's text. */
  message: Message,
  public: z.boolean().default(true),
  /** Affected monitors, for status pages' components. */
  monitorIds: MonitorIds.default([]),
});
export type IncidentCreate = z.infer<typeof IncidentCreate>;
export type IncidentCreateDraft = z.input<typeof IncidentCreate>;

/** Changes to an incident's description (its state changes through updates). */
export const IncidentEdit = z
  .strictObject({
    title: Title.optional(),
    severity: IncidentSeverity.optional(),
    monitorIds: MonitorIds.optional(),
  })
  .refine((e) => Object.keys(e).length > 0, 'Send at least one field to change');
export type IncidentEdit = z.infer<typeof IncidentEdit>;

/** An update on the timeline; `state` moves the incident (resolved closes it, others reopen). */
export const IncidentUpdateInput = z.strictObject({
  state: IncidentState,
  message: Message,
  public: z.boolean().default(true),
});
export type IncidentUpdateInput = z.infer<typeof IncidentUpdateInput>;
export type IncidentUpdateDraft = z.input<typeof IncidentUpdateInput>;

export const IncidentUpdateList = z.object({ items: z.array(IncidentUpdate) });

/** Resolve many incidents at once, with one message on each timeline. */
export const IncidentBulkResolve = z.strictObject({
  ids: z
    .array(z.number().int().positive())
    .min(1, 'Select at least one incident')
    .max(500, 'At most 500 incidents at once'),
  message: Message,
  public: z.boolean().default(true),
});
export type IncidentBulkResolve = z.infer<typeof IncidentBulkResolve>;

/** Which incidents were resolved, which were already, and which were gone (deleted meanwhile). */
export const IncidentBulkResult = z.object({
  resolved: z.array(z.number().int()),
  alreadyResolved: z.array(z.number().int()),
  notFound: z.array(z.number().int()),
});
export type IncidentBulkResult = z.infer<typeof IncidentBulkResult>;
