import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from '../database.js';
import { initial } from './001-initial.js';
import { accounts } from './002-accounts.js';

/** Migrations are code, listed in order, so a bundled build needs no folder scan. */
function migrations(engine: Engine): Record<string, Migration> {
  return {
    '001-initial': initial(engine),
    '002-accounts': accounts(engine),
  };
}

export async function migrateToLatest(db: Kysely<any>, engine: Engine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(engine) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(
      `Database migration failed${name}: ${String((error as Error)?.message ?? error)}`,
    );
  }
}
