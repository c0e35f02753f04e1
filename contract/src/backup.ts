import { z } from 'zod';

/** The first line of a backup file (ADR 29): what made it and what a restore must match. */
export const BackupHeader = z.object({
  format: z.literal('pagewatch-backup'),
  /** This file layout's version; a reader refuses versions it does not know. */
  formatVersion: z.literal(1),
  /** The last migration applied where it was made: the schema version of its rows. */
  migration: z.string().min(1),
  /** The engine it was read from (`sqlite` or `postgres`); it restores into either. */
  engine: z.enum(['sqlite', 'postgres']),
  createdAt: z.iso.datetime(),
  /** The Pagewatch version that wrote it. */
  pagewatch: z.string(),
  /** Fingerprint of the instance key that sealed its secrets (never the key). */
  keyFingerprint: z.string().regex(/^[0-9a-f]{16}$/),
  /** The tables that follow, in order. */
  tables: z.array(z.string()),
});
export type BackupHeader = z.infer<typeof BackupHeader>;

/** Scheduled backups (Settings → Backups): a file every `intervalHours` into `folder`. */
export const BackupSettings = z.strictObject({
  enabled: z.boolean(),
  intervalHours: z
    .number({ error: 'Enter a number of hours' })
    .int('Enter a whole number of hours')
    .min(1, 'Back up at most once an hour')
    .max(24 * 30, 'Back up at least every 30 days (720 hours)'),
  /** An absolute folder on the server; empty: `backups/` in the data folder. */
  folder: z
    .string()
    .trim()
    .max(1000, 'Use at most 1000 characters')
    .refine(
      (f) => f === '' || f.startsWith('/'),
      'Give an absolute path, e.g. /var/backups/pagewatch',
    ),
  /** How many scheduled files to keep; older ones are deleted after a new one is written. */
  keep: z
    .number({ error: 'Enter how many backups to keep' })
    .int('Enter a whole number')
    .min(1, 'Keep at least 1 backup')
    .max(1000, 'Keep at most 1000 backups'),
});
export type BackupSettings = z.infer<typeof BackupSettings>;

export const backupSettingsDefaults: BackupSettings = {
  enabled: false,
  intervalHours: 24,
  folder: '',
  keep: 7,
};

/** The last scheduled or downloaded backup, as any process of the deployment last recorded it. */
export const BackupRun = z.object({
  at: z.iso.datetime(),
  /** `scheduled` (into the folder) or `download` (through the API or the CLI). */
  kind: z.enum(['scheduled', 'download']),
  /** Bytes of the file; null when it failed. */
  bytes: z.number().int().min(0).nullable(),
  /** The file written (scheduled only). */
  file: z.string().nullable(),
  durationMs: z.number().int().min(0),
  /** Why it failed; null when it succeeded. */
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof BackupRun>;

/** GET /api/v1/backup/status: the schedule, where it writes, and the last runs. */
export const BackupStatus = z.object({
  settings: BackupSettings,
  /** The folder scheduled backups go to, resolved on the server. */
  folder: z.string(),
  /** The last backup that succeeded, and the last attempt when it failed after that. */
  lastSuccess: BackupRun.nullable(),
  lastFailure: BackupRun.nullable(),
  /** When the next scheduled backup is due; null while the schedule is off. */
  nextAt: z.iso.datetime().nullable(),
});
export type BackupStatus = z.infer<typeof BackupStatus>;
