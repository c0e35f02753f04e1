import { z } from 'zod';
import { ConfigDocument, configKinds } from './config-document.js';

/** `upsert` creates new keys and updates known ones; `create-only` never touches a known key. */
export const ConfigApplyMode = z.enum(['upsert', 'create-only']);
export type ConfigApplyMode = z.infer<typeof ConfigApplyMode>;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** POST /api/v1/config/apply. */
export const ConfigApplyInput = z.strictObject({
  document: ConfigDocument,
  /**
   * Values of the `${env:NAME}` references, sent by the CLI from its own environment. A
   * reference without a value keeps the stored secret, and is an error where none is stored.
   */
  env: z
    .record(
      z.string().regex(ENV_NAME, 'Variable names are letters, digits and _'),
      z.string().max(65_536, 'Values are limited to 64 KiB'),
    )
    .default({}),
  mode: ConfigApplyMode.default('upsert'),
  /** Delete managed resources the document no longer has, instead of detaching them. */
  prune: z.boolean().default(false),
  /** Answer the report without writing anything. */
  dryRun: z.boolean().default(false),
  /**
   * The token of a plan (POST /api/v1/config/plan): the apply is refused with 409 when the
   * live configuration changed since. Without one the apply writes whatever is live (ADR 28).
   */
  planToken: z.string().min(1).max(200).optional(),
});
export type ConfigApplyInput = z.input<typeof ConfigApplyInput>;

/** What happened to each kind of resource, by key. */
export const ConfigKindReport = z.object({
  created: z.array(z.string()),
  updated: z.array(z.string()),
  unchanged: z.array(z.string()),
  /** Known keys left alone in create-only mode. */
  skipped: z.array(z.string()),
  /** Managed resources the document no longer has, kept and handed back to the UI. */
  detached: z.array(z.string()),
  deleted: z.array(z.string()),
});
export type ConfigKindReport = z.infer<typeof ConfigKindReport>;

export const ConfigApplyReport = z.object({
  dryRun: z.boolean(),
  mode: ConfigApplyMode,
  prune: z.boolean(),
  channels: ConfigKindReport,
  monitors: ConfigKindReport,
  statusPages: ConfigKindReport,
  maintenance: ConfigKindReport,
  slos: ConfigKindReport,
});
export type ConfigApplyReport = z.infer<typeof ConfigApplyReport>;

export const ExportQuery = z.strictObject({ format: z.enum(['json', 'yaml']).default('json') });

const ManagedResource = z.object({ id: z.number().int(), key: z.string() });

/** GET /api/v1/config/managed: what the last applies manage, read-only in the UI. */
export const ConfigManagedList = z.object({
  channels: z.array(ManagedResource),
  monitors: z.array(ManagedResource),
  statusPages: z.array(ManagedResource),
  maintenance: z.array(ManagedResource),
  slos: z.array(ManagedResource),
});
export type ConfigManagedList = z.infer<typeof ConfigManagedList>;

/** POST /api/v1/config/detach: hands one managed resource back to the UI. */
export const ConfigDetachInput = z.strictObject({
  kind: z.enum(configKinds),
  id: z.number().int().positive(),
});
export type ConfigDetachInput = z.infer<typeof ConfigDetachInput>;

/** POST /api/v1/config/plan: what an apply of the document would change, and drift. */
export const ConfigPlanInput = ConfigApplyInput.omit({ dryRun: true, planToken: true });
export type ConfigPlanInput = z.input<typeof ConfigPlanInput>;

/**
 * One changed property of a resource, path relative to its entry. Secrets carry no values:
 * `secret` says whether the stored one changes.
 */
export const ConfigPropertyChange = z.object({
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  secret: z.enum(['changed', 'unchanged']).optional(),
});
export type ConfigPropertyChange = z.infer<typeof ConfigPropertyChange>;

export const ConfigPlanAction = z.enum([
  'create',
  'update',
  'unchanged',
  'skip',
  'detach',
  'delete',
]);
export type ConfigPlanAction = z.infer<typeof ConfigPlanAction>;

export const ConfigPlanEntry = z.object({
  kind: z.enum(configKinds),
  key: z.string(),
  action: ConfigPlanAction,
  /** For updates: each property the files change, live value → file value. */
  changes: z.array(ConfigPropertyChange),
});
export type ConfigPlanEntry = z.infer<typeof ConfigPlanEntry>;

/** A managed resource edited outside the files since the last apply: last applied → live. */
export const ConfigDriftEntry = z.object({
  kind: z.enum(configKinds),
  key: z.string(),
  changes: z.array(ConfigPropertyChange),
});
export type ConfigDriftEntry = z.infer<typeof ConfigDriftEntry>;

/** GET /api/v1/config/drift: managed resources edited outside the files since the last apply. */
export const ConfigDriftList = z.object({ drift: z.array(ConfigDriftEntry) });
export type ConfigDriftList = z.infer<typeof ConfigDriftList>;

export const ConfigPlan = z.object({
  /** Fingerprint of the live configuration the plan was computed against. */
  token: z.string(),
  mode: ConfigApplyMode,
  prune: z.boolean(),
  entries: z.array(ConfigPlanEntry),
  drift: z.array(ConfigDriftEntry),
  summary: z.object({
    create: z.number().int(),
    update: z.number().int(),
    unchanged: z.number().int(),
    skip: z.number().int(),
    detach: z.number().int(),
    delete: z.number().int(),
    drift: z.number().int(),
  }),
});
export type ConfigPlan = z.infer<typeof ConfigPlan>;
