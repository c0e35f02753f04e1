import type { Role } from '@pagewatch/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, UsersTable } from '../schema.js';

const columns = [
  'id',
  'email',
  'name',
  'password_hash',
  'role',
  'totp_secret',
  'totp_pending_secret',
  'totp_enabled',
  'totp_last_step',
  'recovery_codes',
  'disabled',
  'created_at',
  'last_login_at',
] as const;

type Row = Pick<Selectable<UsersTable>, (typeof columns)[number]>;

export interface UserRecord {
  id: number;
  email: string;
  name: string;
  passwordHash: string;
  role: Role;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  totpEnabled: boolean;
  totpLastStep: number | null;
  recoveryCodeHashes: string[];
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
}

const toRecord = (r: Row): UserRecord => ({
  id: r.id,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  role: r.role as Role,
  totpSecret: r.totp_secret,
  totpPendingSecret: r.totp_pending_secret,
  totpEnabled: r.totp_enabled === 1,
  totpLastStep: r.totp_last_step,
  recoveryCodeHashes: JSON.parse(r.recovery_codes) as string[],
  disabled: r.disabled === 1,
  createdAt: r.created_at,
  lastLoginAt: r.last_login_at,
});

export interface UserChanges {
  name?: string;
  role?: Role;
  disabled?: boolean;
  passwordHash?: string;
  totpSecret?: string | null;
  totpPendingSecret?: string | null;
  totpEnabled?: boolean;
  totpLastStep?: number | null;
  recoveryCodeHashes?: string[];
  lastLoginAt?: number;
}

async function updateIn(
  db: Kysely<DB>,
  id: number,
  c: UserChanges,
  now: number,
): Promise<UserRecord | null> {
  const row = await db
    .updateTable('users')
    .set({
      updated_at: now,
      ...(c.name !== undefined ? { name: c.name } : {}),
      ...(c.role !== undefined ? { role: c.role } : {}),
      ...(c.disabled !== undefined ? { disabled: c.disabled ? 1 : 0 } : {}),
      ...(c.passwordHash !== undefined ? { password_hash: c.passwordHash } : {}),
      ...(c.totpSecret !== undefined ? { totp_secret: c.totpSecret } : {}),
      ...(c.totpPendingSecret !== undefined ? { totp_pending_secret: c.totpPendingSecret } : {}),
      ...(c.totpEnabled !== undefined ? { totp_enabled: c.totpEnabled ? 1 : 0 } : {}),
      ...(c.totpLastStep !== undefined ? { totp_last_step: c.totpLastStep } : {}),
      ...(c.recoveryCodeHashes !== undefined
        ? { recovery_codes: JSON.stringify(c.recoveryCodeHashes) }
        : {}),
      ...(c.lastLoginAt !== undefined ? { last_login_at: c.lastLoginAt } : {}),
    })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

type NewUser = { email: string; name: string; passwordHash: string; role: Role };

async function insertIn(db: Kysely<DB>, u: NewUser, now: number): Promise<UserRecord> {
  const row = await db
    .insertInto('users')
    .values({
      email: u.email,
      name: u.name,
      password_hash: u.passwordHash,
      role: u.role,
      created_at: now,
      updated_at: now,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

class NoOwnerLeft extends Error {}

/** SQLite and PostgreSQL name a unique-constraint failure differently. */
const isUniqueViolation = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
};

export function usersRepository(db: Kysely<DB>, engine: 'sqlite' | 'postgres' = 'sqlite') {
  return {
    async count(): Promise<number> {
      const r = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    async countActiveOwners(): Promise<number> {
      const r = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role', '=', 'owner')
        .where('disabled', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Creates the first owner only while there is no user at all, atomically. */
    async insertFirst(
      u: { email: string; name: string; passwordHash: string },
      now: number,
    ): Promise<UserRecord | null> {
      return db.transaction().execute(async (trx) => {
        // Read committed lets two first-runs both see no user; the lock makes the second wait
        // and see the first's owner. SQLite already runs one write transaction at a time.
        if (engine === 'postgres')
          await sql`lock table users in share row exclusive mode`.execute(trx);
        const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
        if (existing) return null;
        const row = await trx
          .insertInto('users')
          .values({
            email: u.email,
            name: u.name,
            password_hash: u.passwordHash,
            role: 'owner',
            created_at: now,
            updated_at: now,
          })
          .returning(columns)
          .executeTakeFirstOrThrow();
        return toRecord(row);
      });
    },

    insert: (u: NewUser, now: number): Promise<UserRecord> => insertIn(db, u, now),

    /** Like insert, but null when the email is taken, even by a request racing this one. */
    async insertUnlessTaken(u: NewUser, now: number): Promise<UserRecord | null> {
      try {
        return await insertIn(db, u, now);
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    async findById(id: number): Promise<UserRecord | null> {
      const row = await db
        .selectFrom('users')
        .select(columns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async findByEmail(email: string): Promise<UserRecord | null> {
      const row = await db
        .selectFrom('users')
        .select(columns)
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async list(): Promise<UserRecord[]> {
      return (await db.selectFrom('users').select(columns).orderBy('id').execute()).map(toRecord);
    },

    update: (id: number, c: UserChanges, now: number): Promise<UserRecord | null> =>
      updateIn(db, id, c, now),

    /** Changes the sign-in email; 'taken' when another account has it (even one racing this). */
    async setEmail(id: number, email: string, now: number): Promise<UserRecord | null | 'taken'> {
      try {
        const row = await db
          .updateTable('users')
          .set({ email: email.toLowerCase(), updated_at: now })
          .where('id', '=', id)
          .returning(columns)
          .executeTakeFirst();
        return row ? toRecord(row) : null;
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },

    /**
     * Deletes an account and leaves a tombstone with its name for the audit log, unless that
     * leaves no active owner; sessions, keys and links go with it (foreign keys cascade).
     */
    async removeKeepingAnOwner(id: number, now: number): Promise<UserRecord | null | 'last_owner'> {
      try {
        return await db.transaction().execute(async (trx) => {
          if (engine === 'postgres')
            await sql`lock table users in share row exclusive mode`.execute(trx);
          const row = await trx
            .deleteFrom('users')
            .where('id', '=', id)
            .returning(columns)
            .executeTakeFirst();
          if (!row) return null;
          const owners = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('role', '=', 'owner')
            .where('disabled', '=', 0)
            .executeTakeFirstOrThrow();
          if (Number(owners.n) === 0) throw new NoOwnerLeft();
          await trx
            .insertInto('deleted_users')
            .values({ user_id: id, email: row.email, name: row.name, deleted_at: now })
            .execute();
          return toRecord(row);
        });
      } catch (err) {
        if (err instanceof NoOwnerLeft) return 'last_owner';
        throw err;
      }
    },

    /** Names of deleted accounts by id, for audit lines they left behind. */
    async deletedNames(
      ids: readonly number[],
    ): Promise<Map<number, { name: string; email: string }>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('deleted_users')
        .select(['user_id', 'name', 'email'])
        .where('user_id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((r) => [r.user_id, { name: r.name, email: r.email }]));
    },

    /**
     * Replaces the unused recovery codes only if they are still `before` (compare-and-set):
     * of two requests spending the same code at once, exactly one succeeds.
     */
    async spendRecoveryCode(
      id: number,
      before: string[],
      after: string[],
      now: number,
    ): Promise<boolean> {
      const res = await db
        .updateTable('users')
        .set({ recovery_codes: JSON.stringify(after), updated_at: now })
        .where('id', '=', id)
        .where('recovery_codes', '=', JSON.stringify(before))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /**
     * Applies a change unless it leaves no active owner. Check and write are one transaction
     * (serialised on PostgreSQL), so two owners demoting each other at once cannot both win.
     */
    async updateKeepingAnOwner(
      id: number,
      c: UserChanges,
      now: number,
    ): Promise<UserRecord | null | 'last_owner'> {
      try {
        return await db.transaction().execute(async (trx) => {
          if (engine === 'postgres')
            await sql`lock table users in share row exclusive mode`.execute(trx);
          const after = await updateIn(trx, id, c, now);
          const owners = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('role', '=', 'owner')
            .where('disabled', '=', 0)
            .executeTakeFirstOrThrow();
          if (Number(owners.n) === 0) throw new NoOwnerLeft();
          return after;
        });
      } catch (err) {
        if (err instanceof NoOwnerLeft) return 'last_owner';
        throw err;
      }
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
