import type { Kysely, Migration } from 'kysely';

/** An HTTP monitor's settings as stored before assertions (keyword was its one body check). */
interface LegacyHttpSettings {
  keyword?: { value: string; mode?: string; caseSensitive?: boolean } | null;
  body?: string;
  [key: string]: unknown;
}

/**
 * HTTP settings in today's shape: the single `keyword` becomes the first keyword assertion,
 * and the options added with it get their defaults. Settings already in that shape are kept.
 */
export function upgradeHttpSettings(settings: LegacyHttpSettings): Record<string, unknown> {
  const { keyword, ...rest } = settings;
  const assertions = Array.isArray(rest.assertions) ? (rest.assertions as unknown[]) : [];
  if (keyword != null) {
    assertions.unshift({
      kind: 'keyword',
      value: keyword.value,
      mode: keyword.mode ?? 'present',
      caseSensitive: keyword.caseSensitive ?? true,
      soft: false,
    });
  }
  return {
    ...rest,
    bodyType: rest.bodyType ?? ((rest.body ?? '') === '' ? 'none' : 'raw'),
    auth: rest.auth ?? { kind: 'none' },
    ipFamily: rest.ipFamily ?? 'auto',
    maxBodyBytes: rest.maxBodyBytes ?? 1024 * 1024,
    assertions,
  };
}

/**
 * The last check's details (certificate, assertion results) on the monitor, kept once rather
 * than per result; a sealed secret column for request credentials; HTTP settings upgraded.
 */
export function lastDetails(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('monitors').addColumn('last_details', 'text').execute();
      await db.schema.alterTable('monitors').addColumn('secret', 'text').execute();
      const rows = (await db
        .selectFrom('monitors')
        .select(['id', 'config'])
        .where('type', '=', 'http')
        .execute()) as { id: number; config: string }[];
      for (const row of rows) {
        const config = JSON.stringify(
          upgradeHttpSettings(JSON.parse(row.config) as LegacyHttpSettings),
        );
        await db.updateTable('monitors').set({ config }).where('id', '=', row.id).execute();
      }
    },
  };
}
