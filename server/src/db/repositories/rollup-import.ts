import type { Kysely } from 'kysely';
import type { RollupDelta, RollupLevel } from '../../domain/rollup.js';
import type { Engine } from '../database.js';
import type { DB } from '../schema.js';
import { applyRollupDeltas } from './rollups.js';

/** History brought in by an importer, added to the rollups as results are (issue 15). */
export function rollupImportRepository(db: Kysely<DB>, engine: Engine) {
  return {
    /** Adds buckets of one level; run inside the import's transaction. */
    async add(level: RollupLevel, deltas: readonly RollupDelta[]): Promise<void> {
      await applyRollupDeltas(db, engine, level, deltas);
    },
  };
}
