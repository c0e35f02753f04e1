import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../schema.js';

export interface PasskeyRecord {
  id: number;
  userId: number;
  credentialId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  backedUp: boolean;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export type ChallengePurpose = 'register' | 'sign_in' | 'second_factor';

export interface ChallengeRecord {
  purpose: ChallengePurpose;
  userId: number | null;
  loginChallengeHash: string | null;
  expiresAt: number;
}

const COLUMNS = [
  'id',
  'user_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'backed_up',
  'name',
  'created_at',
  'last_used_at',
] as const;

type Row = Selectable<DB['passkeys']>;

const toRecord = (r: Row): PasskeyRecord => ({
  id: Number(r.id),
  userId: r.user_id,
  credentialId: r.credential_id,
  publicKey: r.public_key,
  counter: Number(r.counter),
  transports: JSON.parse(r.transports) as string[],
  backedUp: Number(r.backed_up) === 1,
  name: r.name,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
});

/** Passkeys and the WebAuthn challenges of ceremonies under way (ADR 50). */
export function passkeysRepository(db: Kysely<DB>) {
  return {
    async listForUser(userId: number): Promise<PasskeyRecord[]> {
      const rows = await db
        .selectFrom('passkeys')
        .select(COLUMNS)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async countForUser(userId: number): Promise<number> {
      const r = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    async findByCredentialId(credentialId: string): Promise<PasskeyRecord | null> {
      const r = await db
        .selectFrom('passkeys')
        .select(COLUMNS)
        .where('credential_id', '=', credentialId)
        .executeTakeFirst();
      return r ? toRecord(r) : null;
    },

    async insert(p: Omit<PasskeyRecord, 'id' | 'lastUsedAt'>): Promise<PasskeyRecord> {
      const r = await db
        .insertInto('passkeys')
        .values({
          user_id: p.userId,
          credential_id: p.credentialId,
          public_key: p.publicKey,
          counter: p.counter,
          transports: JSON.stringify(p.transports),
          backed_up: p.backedUp ? 1 : 0,
          name: p.name,
          created_at: p.createdAt,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toRecord(r);
    },

    /** Renames one of a person's passkeys; false when they have no such passkey. */
    async rename(userId: number, id: number, name: string): Promise<boolean> {
      const r = await db
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async remove(userId: number, id: number): Promise<PasskeyRecord | null> {
      const r = await db
        .deleteFrom('passkeys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning(COLUMNS)
        .executeTakeFirst();
      return r ? toRecord(r) : null;
    },

    /**
     * Records a use: the new counter only if it is still above the stored one (compare-and-set),
     * so two sign-ins racing with one assertion cannot both pass. False when another won.
     */
    async recordUse(
      id: number,
      previous: number,
      counter: number,
      backedUp: boolean,
      at: number,
    ): Promise<boolean> {
      const r = await db
        .updateTable('passkeys')
        .set({ counter, backed_up: backedUp ? 1 : 0, last_used_at: at })
        .where('id', '=', id)
        .where('counter', '=', previous)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async insertChallenge(idHash: string, c: ChallengeRecord): Promise<void> {
      await db
        .insertInto('webauthn_challenges')
        .values({
          id_hash: idHash,
          purpose: c.purpose,
          user_id: c.userId,
          login_challenge_hash: c.loginChallengeHash,
          expires_at: c.expiresAt,
        })
        .execute();
    },

    /** Takes a challenge out (single use): the row, or null when unknown or already used. */
    async takeChallenge(idHash: string): Promise<ChallengeRecord | null> {
      const r = await db
        .deleteFrom('webauthn_challenges')
        .where('id_hash', '=', idHash)
        .returning(['purpose', 'user_id', 'login_challenge_hash', 'expires_at'])
        .executeTakeFirst();
      return r
        ? {
            purpose: r.purpose as ChallengePurpose,
            userId: r.user_id,
            loginChallengeHash: r.login_challenge_hash,
            expiresAt: Number(r.expires_at),
          }
        : null;
    },

    async removeExpiredChallenges(now: number): Promise<void> {
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<', now).execute();
    },
  };
}

export type PasskeysRepository = ReturnType<typeof passkeysRepository>;
