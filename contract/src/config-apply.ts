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
});
export type ConfigManagedList = z.infer<typeof ConfigManagedList>;

/** POST /api/v1/config/detach: hands one managed resource back to the UI. */
export const ConfigDetachInput = z.strictObject({
  kind: z.enum(configKinds),
  id: z.number().int().positive(),
});
export type ConfigDetachInput = z.infer<typeof ConfigDetachInput>;
