import type { Database } from '../database.js';
import { monitorsRepository } from './monitors.js';
import { resultsRepository } from './results.js';

export function repositories(database: Database) {
  return {
    monitors: monitorsRepository(database.db),
    results: resultsRepository(database.db, database.engine),
  };
}

export type Repositories = ReturnType<typeof repositories>;
