import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** Failed sign-ins per subject (`email:…`, `ip:…`), kept in the database so limits survive restarts. */
export function loginFailuresRepository(db: Kysely<DB>) {
  return {
    async record(subjects: string[], at: number): Promise<void> {
      if (subjects.length === 0) return;
      await db
        .insertInto('login_failures')
        .values(subjects.map((subject) => ({ subject, at })))
        .execute();
    },

    /** Failure times of a subject since `since`, oldest first. */
    async since(subject: string, since: number): Promise<number[]> {
      const rows = await db
        .selectFrom('login_failures')
        .select('at')
        .where('subject', '=', subject)
        .where('at', '>=', since)
        .orderBy('at')
        .execute();
      return rows.map((r) => r.at);
    },

    async clear(subject: string): Promise<void> {
      await db.deleteFrom('login_failures').where('subject', '=', subject).execute();
    },

    async prune(before: number): Promise<void> {
      await db.deleteFrom('login_failures').where('at', '<', before).execute();
    },
  };
}
