import { z } from 'zod';

/** Tools Pagewatch imports from (issue 15 item 4). */
export const ImportSource = z.enum(['uptime-kuma', 'gatus']);
export type ImportSource = z.infer<typeof ImportSource>;

/** SPEC §9: an import file is at most 20 MiB. */
export const importLimits = { bytesMax: 20 * 1024 * 1024 } as const;

/**
 * What became of one thing of the other tool: `created` (new here), `existing` (imported
 * before under the same key and left as it is), `merged` (folded into other resources, e.g.
 * a group into its members' tags) or `skipped` (not imported; `reason` says why).
 */
export const ImportOutcome = z.enum(['created', 'existing', 'merged', 'skipped']);
export type ImportOutcome = z.infer<typeof ImportOutcome>;

export const ImportItemKind = z.enum(['monitor', 'channel', 'statusPage', 'maintenance']);
export type ImportItemKind = z.infer<typeof ImportItemKind>;

export const ImportItem = z.object({
  kind: ImportItemKind,
  /** The other tool's name for it, e.g. `monitor #12 (http)`. */
  source: z.string(),
  name: z.string(),
  /** Its key in Pagewatch's configuration; null when skipped or merged. */
  key: z.string().nullable(),
  outcome: ImportOutcome,
  /** Why it was skipped or merged; null when created or existing. */
  reason: z.string().nullable(),
  /** Settings carried over differently, or left out, with why. */
  notes: z.array(z.string()),
});
export type ImportItem = z.infer<typeof ImportItem>;

export const ImportReport = z.object({
  source: ImportSource,
  /** What was read, e.g. "Uptime Kuma 2.5.3 database (schema step …)". */
  origin: z.string(),
  /** True for the preview: nothing was written. */
  dryRun: z.boolean(),
  items: z.array(ImportItem),
  counts: z.record(ImportOutcome, z.number().int()),
  /** Statistics carried into the rollups of the monitors created by this import. */
  history: z.object({
    monitors: z.number().int(),
    days: z.number().int(),
    hours: z.number().int(),
    minutes: z.number().int(),
  }),
});
export type ImportReport = z.infer<typeof ImportReport>;

export const ImportQuery = z.strictObject({
  /** `true`: answer the report without writing anything (the preview). */
  dryRun: z
    .enum(['true', 'false'], { error: 'dryRun is true or false' })
    .default('false')
    .transform((v) => v === 'true'),
});
