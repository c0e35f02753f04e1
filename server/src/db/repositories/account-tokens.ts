import type { Kysely, Selectable } from 'kysely';
import type { AccountTokensTable, DB } from '../schema.js';

export type AccountTokenKind = 'password_reset' | 'invitation' | 'email_change';

export interface AccountTokenRecord {
  id: number;
  kind: AccountTokenKind;
  userId: number | null;
  email: string;
  role: string | null;
  createdBy: number | null;
  createdByLabel: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

const columns = [
  'id',
  'kind',
  'user_id',
  'email',
  'role',
  'created_by',
  'created_by_label',
  'created_at',
  'expires_at',
  'used_at',
  'revoked_at',
] as const;

type Row = Pick<Selectable<AccountTokensTable>, (typeof columns)[number]>;

const toRecord = (r: Row): AccountTokenRecord => ({
  id: r.id,
  kind: r.kind as AccountTokenKind,
  userId: r.user_id,
  email: r.email,
  role: r.role,
  createdBy: r.created_by,
  createdByLabel: r.created_by_label,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  usedAt: r.used_at === null ? null : Number(r.used_at),
  revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
});

export interface NewAccountToken {
  kind: AccountTokenKind;
  tokenHash: string;
  userId: number | null;
  email: string;
  role: string | null;
  createdBy: number | null;
  createdByLabel: string;
  createdAt: number;
  expiresAt: number;
}

/** Reset, invitation and email-change links; tokens are looked up by their hash only. */
export function accountTokensRepository(db: Kysely<DB>) {
  return {
    async insert(t: NewAccountToken): Promise<AccountTokenRecord> {
      const row = await db
        .insertInto('account_tokens')
        .values({
          kind: t.kind,
          token_hash: t.tokenHash,
          user_id: t.userId,
          email: t.email,
          role: t.role,
          created_by: t.createdBy,
          created_by_label: t.createdByLabel,
          created_at: t.createdAt,
          expires_at: t.expiresAt,
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    async findByHash(kind: AccountTokenKind, tokenHash: string) {
      const row = await db
        .selectFrom('account_tokens')
        .select(columns)
        .where('kind', '=', kind)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async findById(id: number): Promise<AccountTokenRecord | null> {
      const row = await db
        .selectFrom('account_tokens')
        .select(columns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** Marks a token used unless it already is, was revoked or lapsed: exactly one use wins. */
    async spend(id: number, now: number): Promise<boolean> {
      const res = await db
        .updateTable('account_tokens')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Revokes the open tokens of a kind for a person (or an invited address). */
    async revokeOpen(
      kind: AccountTokenKind,
      who: { userId: number } | { email: string },
      now: number,
    ): Promise<number> {
      let q = db
        .updateTable('account_tokens')
        .set({ revoked_at: now })
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null);
      q = 'userId' in who ? q.where('user_id', '=', who.userId) : q.where('email', '=', who.email);
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    },

    async revoke(id: number, now: number): Promise<boolean> {
      const res = await db
        .updateTable('account_tokens')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Invitations neither used nor revoked, newest first (expired ones too, marked by the caller). */
    async openInvitations(): Promise<AccountTokenRecord[]> {
      const rows = await db
        .selectFrom('account_tokens')
        .select(columns)
        .where('kind', '=', 'invitation')
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toRecord);
    },
  };
}

export type AccountTokensRepository = ReturnType<typeof accountTokensRepository>;
