import type { Role } from '@pagewatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

export interface ApiKeyRecord {
  id: number;
  name: string;
  prefix: string;
  role: Role;
  userId: number;
  userName: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** What authenticating with a key needs: the key and its creator's current standing. */
export interface ApiKeyPrincipal {
  id: number;
  name: string;
  role: Role;
  expiresAt: number | null;
  lastUsedAt: number | null;
  userId: number;
  userRole: Role;
  userDisabled: boolean;
}

export function apiKeysRepository(db: Kysely<DB>) {
  const listed = () =>
    db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select([
        'api_keys.id',
        'api_keys.name',
        'api_keys.prefix',
        'api_keys.role',
        'api_keys.user_id',
        'users.name as user_name',
        'api_keys.created_at',
        'api_keys.expires_at',
        'api_keys.last_used_at',
      ])
      .where('api_keys.revoked_at', 'is', null);

  const toRecord = (
    r: Awaited<ReturnType<ReturnType<typeof listed>['execute']>>[number],
  ): ApiKeyRecord => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    role: r.role as Role,
    userId: r.user_id,
    userName: r.user_name,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
  });

  return {
    async insert(
      k: {
        name: string;
        prefix: string;
        keyHash: string;
        role: Role;
        userId: number;
        expiresAt: number | null;
      },
      now: number,
    ): Promise<ApiKeyRecord> {
      const { id } = await db
        .insertInto('api_keys')
        .values({
          name: k.name,
          prefix: k.prefix,
          key_hash: k.keyHash,
          role: k.role,
          user_id: k.userId,
          created_at: now,
          expires_at: k.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const row = await listed().where('api_keys.id', '=', id).executeTakeFirstOrThrow();
      return toRecord(row);
    },

    async list(userId?: number): Promise<ApiKeyRecord[]> {
      let q = listed().orderBy('api_keys.id');
      if (userId !== undefined) q = q.where('api_keys.user_id', '=', userId);
      return (await q.execute()).map(toRecord);
    },

    async findById(id: number): Promise<ApiKeyRecord | null> {
      const row = await listed().where('api_keys.id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async findByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
      const r = await db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .select([
          'api_keys.id',
          'api_keys.name',
          'api_keys.role',
          'api_keys.expires_at',
          'api_keys.last_used_at',
          'users.id as user_id',
          'users.role as user_role',
          'users.disabled as user_disabled',
        ])
        .where('api_keys.key_hash', '=', keyHash)
        .where('api_keys.revoked_at', 'is', null)
        .executeTakeFirst();
      return r
        ? {
            id: r.id,
            name: r.name,
            role: r.role as Role,
            expiresAt: r.expires_at,
            lastUsedAt: r.last_used_at,
            userId: r.user_id,
            userRole: r.user_role as Role,
            userDisabled: r.user_disabled === 1,
          }
        : null;
    },

    async touch(id: number, at: number): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    async revoke(id: number, at: number): Promise<boolean> {
      const r = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
