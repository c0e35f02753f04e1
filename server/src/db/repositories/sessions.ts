import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface SessionRecord {
  idHash: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export function sessionsRepository(db: Kysely<DB>) {
  return {
    async insert(
      s: SessionRecord & { ip: string | null; userAgent: string | null },
    ): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          id_hash: s.idHash,
          user_id: s.userId,
          created_at: s.createdAt,
          last_seen_at: s.lastSeenAt,
          expires_at: s.expiresAt,
          ip: s.ip,
          user_agent: s.userAgent?.slice(0, 500) ?? null,
        })
        .execute();
    },

    async find(idHash: string): Promise<SessionRecord | null> {
      const r = await db
        .selectFrom('sessions')
        .select(['id_hash', 'user_id', 'created_at', 'last_seen_at', 'expires_at'])
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return r
        ? {
            idHash: r.id_hash,
            userId: r.user_id,
            createdAt: r.created_at,
            lastSeenAt: r.last_seen_at,
            expiresAt: r.expires_at,
          }
        : null;
    },

    async touch(idHash: string, at: number): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: at })
        .where('id_hash', '=', idHash)
        .execute();
    },

    async remove(idHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },

    /** Ends every session of a user, optionally keeping one (the caller's own). */
    async removeForUser(userId: number, except?: string): Promise<void> {
      let q = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (except) q = q.where('id_hash', '!=', except);
      await q.execute();
    },

    async removeExpired(now: number): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
      await db.deleteFrom('login_challenges').where('expires_at', '<', now).execute();
    },

    async insertChallenge(idHash: string, userId: number, expiresAt: number): Promise<void> {
      await db
        .insertInto('login_challenges')
        .values({ id_hash: idHash, user_id: userId, expires_at: expiresAt })
        .execute();
    },

    /** Counts one attempt against a TOTP challenge and returns it, or null if unknown. */
    async useChallenge(
      idHash: string,
    ): Promise<{ userId: number; expiresAt: number; attempts: number } | null> {
      const r = await db
        .updateTable('login_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id_hash', '=', idHash)
        .returning(['user_id', 'expires_at', 'attempts'])
        .executeTakeFirst();
      return r ? { userId: r.user_id, expiresAt: r.expires_at, attempts: r.attempts } : null;
    },

    async removeChallenge(idHash: string): Promise<void> {
      await db.deleteFrom('login_challenges').where('id_hash', '=', idHash).execute();
    },
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;
