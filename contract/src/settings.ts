import { z } from 'zod';
import { MailSettings } from './accounts.js';
import { isValidTimeZone } from './zoned-time.js';

/*
 * Instance settings (SPEC §2 /settings/*), stored as one row per group. A group is a whole
 * object: PUT replaces the groups it names and leaves the others. A new group is a schema
 * here, an entry in `settingsGroups` and a default; storage needs no migration.
 */

/**
 * Zones renamed by IANA whose old names ICU still lists (Chromium and Node answer
 * `Asia/Calcutta` from `Intl.supportedValuesOf`): the current name is offered and stored.
 */
const renamedZones: Readonly<Record<string, string>> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Europe/Uzhgorod': 'Europe/Kyiv',
  'Europe/Zaporozhye': 'Europe/Kyiv',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'America/Godthab': 'America/Nuuk',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
};

/** The current IANA name of a zone (`Asia/Calcutta` → `Asia/Kolkata`); others as given. */
export function currentZoneName(zone: string): string {
  const renamed = renamedZones[zone];
  return renamed && isValidTimeZone(renamed) ? renamed : zone;
}

/** Zone names to offer in a picker: this runtime's list under their current names, sorted. */
export function displayTimeZones(runtime: readonly string[]): string[] {
  const names = new Set(['UTC', ...runtime.map(currentZoneName)]);
  return [...names].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

export const GeneralSettings = z.strictObject({
  /** Shown in the page title and the header; the typed confirmation of "delete all data". */
  instanceName: z
    .string({ error: 'Enter a name' })
    .trim()
    .min(1, 'Enter a name')
    .max(100, 'Use at most 100 characters'),
  /** IANA zone the app shows times in (`UTC`, `Europe/Kyiv`, `Asia/Kolkata`…). */
  timeZone: z
    .string({ error: 'Choose a time zone' })
    .trim()
    .min(1, 'Choose a time zone')
    .refine(isValidTimeZone, 'Choose a time zone from the list, e.g. Europe/Kyiv')
    .transform(currentZoneName),
});
export type GeneralSettings = z.infer<typeof GeneralSettings>;

/**
 * Shortest keeps that leave every window of SPEC §9 correct: the 24 h window reads minute
 * buckets, 7 d and 30 d read hours, 90 d windows and status-page bars read days.
 */
export const retentionLimits = {
  rawDays: { min: 1, max: 3650 },
  minuteRollupDays: { min: 2, max: 3650 },
  hourRollupDays: { min: 31, max: 3650 },
  dayRollupDays: { min: 91, max: 36500 },
} as const;

const days = (key: keyof typeof retentionLimits, what: string) => {
  const { min, max } = retentionLimits[key];
  return z
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(min, `Keep ${what} at least ${min} day${min === 1 ? '' : 's'}`)
    .max(max, `Keep ${what} at most ${max} days`);
};

export const RetentionSettings = z
  .strictObject({
    /** Raw check results (the recent checks list, a result's details). */
    rawDays: days('rawDays', 'raw check results'),
    minuteRollupDays: days('minuteRollupDays', 'minute rollups'),
    hourRollupDays: days('hourRollupDays', 'hour rollups'),
    /** null: forever (the default). */
    dayRollupDays: days('dayRollupDays', 'day rollups').nullable(),
  })
  .superRefine((r, ctx) => {
    // A coarser grain costs less per day than a finer one: keeping it shorter saves nothing.
    if (r.hourRollupDays < r.minuteRollupDays)
      ctx.addIssue({
        code: 'custom',
        path: ['hourRollupDays'],
        message: 'Keep hour rollups at least as long as minute rollups',
      });
    if (r.dayRollupDays !== null && r.dayRollupDays < r.hourRollupDays)
      ctx.addIssue({
        code: 'custom',
        path: ['dayRollupDays'],
        message: 'Keep day rollups at least as long as hour rollups',
      });
  });
export type RetentionSettings = z.infer<typeof RetentionSettings>;

/** Account policies (ADR 51): a second factor for everyone signing in with a password. */
export const SecuritySettings = z.strictObject({
  requireSecondFactor: z.boolean(),
});
export type SecuritySettings = z.infer<typeof SecuritySettings>;

/** Every stored group and its schema; the backup schedule joins here as `backups`. */
export const settingsGroups = {
  general: GeneralSettings,
  retention: RetentionSettings,
  /** The system mail channel for account links (ADR 34). */
  mail: MailSettings,
  security: SecuritySettings,
} as const;
export type SettingsGroup = keyof typeof settingsGroups;

/** SPEC §9 defaults; what a group is until someone saves it. */
export const settingsDefaults: { [G in SettingsGroup]: z.infer<(typeof settingsGroups)[G]> } = {
  general: { instanceName: 'Pagewatch', timeZone: 'UTC' },
  retention: { rawDays: 30, minuteRollupDays: 90, hourRollupDays: 730, dayRollupDays: null },
  mail: { systemChannelId: null },
  security: { requireSecondFactor: false },
};

/** Settings as the API answers them: every group, plus what the environment fixes. */
export const Settings = z.object({
  general: GeneralSettings,
  retention: RetentionSettings,
  mail: MailSettings,
  security: SecuritySettings,
  /** Deployment facts shown beside the settings; changed only where the server starts. */
  environment: z.object({
    /** PAGEWATCH_PUBLIC_URL, or null when it is not set. */
    publicUrl: z.string().nullable(),
  }),
});
export type Settings = z.infer<typeof Settings>;

/** PUT /api/v1/settings: the groups to replace, each whole. */
export const SettingsUpdate = z
  .strictObject({
    general: GeneralSettings.optional(),
    retention: RetentionSettings.optional(),
    mail: MailSettings.optional(),
    security: SecuritySettings.optional(),
  })
  .refine((u) => Object.values(u).some((g) => g !== undefined), 'Send at least one group');
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;

/** GET /api/v1/settings/storage: how big the database is and where the retention takes it. */
export const StorageReport = z.object({
  engine: z.enum(['sqlite', 'postgres']),
  /** The database now: SQLite's file plus its WAL; PostgreSQL's schema's relations. */
  databaseBytes: z.number().int().min(0),
  /** SQLite's write-ahead log, included in `databaseBytes`; null on PostgreSQL. */
  walBytes: z.number().int().min(0).nullable(),
  /** Free space for the data folder; null when the database is elsewhere (PostgreSQL). */
  freeDiskBytes: z.number().int().min(0).nullable(),
  /** Active monitors and the checks a minute their intervals ask for. */
  activeMonitors: z.number().int().min(0),
  checksPerMinute: z.number().min(0),
  /** Bytes one stored raw result takes with its indexes, measured on this engine. */
  bytesPerResult: z.number().min(0),
  /** Expected history rows and bytes once the configured retention is reached, per grain. */
  projection: z.object({
    rawBytes: z.number().min(0),
    minuteBytes: z.number().min(0),
    hourBytes: z.number().min(0),
    /** Day rollups at the hour rollups' horizon when kept forever (they grow on). */
    dayBytes: z.number().min(0),
    /** Day rollups added a year when they are kept forever; 0 otherwise. */
    dayBytesPerYear: z.number().min(0),
  }),
  /** The database at that point: what it holds besides history, plus the projection. */
  projectedBytes: z.number().min(0),
  /** True when reaching the projection needs more than the free disk. */
  exceedsFreeDisk: z.boolean(),
});
export type StorageReport = z.infer<typeof StorageReport>;

/** POST /api/v1/settings/transfer-ownership: the owner hands over to an admin. */
export const OwnershipTransfer = z.strictObject({
  userId: z.number({ error: 'Choose an admin' }).int().positive('Choose an admin'),
  password: z.string().min(1, 'Enter your password').max(1024),
});
export type OwnershipTransfer = z.infer<typeof OwnershipTransfer>;

/** POST /api/v1/settings/delete-all-data: the instance name typed out. */
export const DeleteAllData = z.strictObject({
  confirm: z.string({ error: 'Type the instance name' }).max(200),
});
export type DeleteAllData = z.infer<typeof DeleteAllData>;

/** What "delete all data" removed, by kind. */
export const DeletedData = z.object({
  monitors: z.number().int(),
  incidents: z.number().int(),
  statusPages: z.number().int(),
  notificationChannels: z.number().int(),
  maintenanceWindows: z.number().int(),
});
export type DeletedData = z.infer<typeof DeletedData>;
