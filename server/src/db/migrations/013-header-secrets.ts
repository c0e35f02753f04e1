import type { Kysely, Migration } from 'kysely';

/** Seals a secret with the instance key (the SecretBox), for migrations that move secrets. */
export type Sealer = (plaintext: string) => string;

// A frozen copy of the contract's list as of this migration: later edits must not change it.
const HARMLESS = new Set([
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-type',
  'pragma',
  'user-agent',
]);

interface LegacyHeader {
  name: string;
  value?: string;
}

/** Settings headers in today's shape and the secret values taken out of them, in order. */
export function splitLegacyHeaders(headers: readonly LegacyHeader[]): {
  headers: Record<string, unknown>[];
  values: string[];
} {
  const values: string[] = [];
  const next = headers.map((h) => {
    const value = h.value ?? '';
    if (HARMLESS.has(h.name.toLowerCase()) || value === '') {
      return { name: h.name, secret: false, value };
    }
    values.push(value);
    return { name: h.name, secret: true };
  });
  return { headers: next, values };
}

/**
 * Request header values become secrets like passwords: every existing header of an HTTP or
 * browser monitor is sealed into `header_secrets`, except the harmless ones (Accept,
 * User-Agent…) and empty values, which stay in the settings marked non-secret.
 */
export function headerSecrets(seal: Sealer | undefined): Migration {
  return {
    async up(db: Kysely<any>) {
      const rows = (await db
        .selectFrom('monitors')
        .select(['id', 'config'])
        .where('type', 'in', ['http', 'browser'])
        .execute()) as { id: number; config: string }[];
      const updates: { id: number; config: string; sealed: string | null }[] = [];
      for (const row of rows) {
        const settings = JSON.parse(row.config) as { headers?: LegacyHeader[] };
        if (!Array.isArray(settings.headers) || settings.headers.length === 0) continue;
        const { headers, values } = splitLegacyHeaders(settings.headers);
        // Checked before any change: SQLite cannot roll back the column added below.
        if (values.length > 0 && seal === undefined) {
          throw new Error('Sealing monitor request headers needs the instance secret key');
        }
        const config = JSON.stringify({ ...settings, headers });
        const sealed = values.length > 0 && seal ? seal(JSON.stringify(values)) : null;
        updates.push({ id: row.id, config, sealed });
      }
      await db.schema.alterTable('monitors').addColumn('header_secrets', 'text').execute();
      for (const u of updates) {
        await db
          .updateTable('monitors')
          .set({ config: u.config, header_secrets: u.sealed })
          .where('id', '=', u.id)
          .execute();
      }
    },
  };
}
