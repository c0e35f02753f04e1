import type { Kysely, Migration } from 'kysely';
import { CONFIG_TABLES } from './018-config-keys.js';

/**
 * Drift (issue 15, ADR 28): each managed resource remembers the definition the last apply
 * wrote, secrets as keyed digests, so a plan can name what the UI changed since.
 */
export function configApplied(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of CONFIG_TABLES) {
        await db.schema.alterTable(table).addColumn('config_applied', 'text').execute();
      }
    },
  };
}
