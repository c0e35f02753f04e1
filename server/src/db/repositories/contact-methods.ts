import {
  QuietHoursWindow,
  type ContactMethod,
  type ContactMethodKind,
  type TagPolicy,
} from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { ContactMethodsTable, DB } from '../schema.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const StoredWindows = z.array(QuietHoursWindow);

/** A contact method as the sender reads it: secrets still sealed. */
export interface StoredContactMethod {
  id: number;
  userId: number;
  userName: string;
  userDisabled: boolean;
  kind: ContactMethodKind;
  label: string;
  config: Record<string, unknown>;
  sealedSecrets: string | null;
  verified: boolean;
}

/** The view: config without secrets, secret names supplied by the caller (they are sealed). */
function toView(r: Selectable<ContactMethodsTable>, secretNames: string[]): ContactMethod {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    kind: r.kind as ContactMethodKind,
    label: r.label,
    config: JSON.parse(r.config) as Record<string, unknown>,
    secretNames,
    verifiedAt: iso(r.verified_at),
    codeSentAt: r.code_hash === null ? null : iso(r.code_sent_at),
    createdAt: iso(r.created_at)!,
  };
}

export function readWindows(json: string | null | undefined): QuietHoursWindow[] {
  if (!json) return [];
  try {
    return StoredWindows.safeParse(JSON.parse(json)).data ?? [];
  } catch {
    return [];
  }
}

/** People's contact methods, their quiet hours and the per-tag policies (ADR 60, 61). */
export function contactMethodsRepository(db: Kysely<DB>) {
  return {
    /** A person's methods in the order they were added; `names` opens the sealed secrets' names. */
    async listOfUser(
      userId: number,
      names: (sealed: string | null) => string[],
    ): Promise<ContactMethod[]> {
      const rows = await db
        .selectFrom('contact_methods')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map((r) => toView(r, names(r.secrets)));
    },

    async find(
      id: number,
      names: (sealed: string | null) => string[],
    ): Promise<ContactMethod | null> {
      const r = await db
        .selectFrom('contact_methods')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return r ? toView(r, names(r.secrets)) : null;
    },

    async create(
      m: {
        userId: number;
        kind: ContactMethodKind;
        label: string;
        config: unknown;
        sealedSecrets: string | null;
      },
      now: number,
    ): Promise<number> {
      const r = await db
        .insertInto('contact_methods')
        .values({
          user_id: m.userId,
          kind: m.kind,
          label: m.label,
          config: JSON.stringify(m.config),
          secrets: m.sealedSecrets,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    },

    /** A new pending code replaces the previous one (and its failed tries). */
    async setCode(id: number, hash: string, now: number, expiresAt: number): Promise<void> {
      await db
        .updateTable('contact_methods')
        .set({ code_hash: hash, code_sent_at: now, code_expires_at: expiresAt, code_tries: 0 })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Spends the pending code: a compare-and-set on its hash, expiry and tries, so a code works
     * once and five wrong tries end it. Returns why it failed, or null on success.
     */
    async verify(
      id: number,
      hash: string,
      now: number,
    ): Promise<null | 'no_code' | 'expired' | 'wrong'> {
      const row = await db
        .selectFrom('contact_methods')
        .select(['code_hash', 'code_expires_at', 'code_tries'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.code_hash === null) return 'no_code';
      if (Number(row.code_expires_at ?? 0) <= now || row.code_tries >= 5) return 'expired';
      const r = await db
        .updateTable('contact_methods')
        .set({ verified_at: now, code_hash: null, code_expires_at: null, code_tries: 0 })
        .where('id', '=', id)
        .where('code_hash', '=', hash)
        .where('code_expires_at', '>', now)
        .where('code_tries', '<', 5)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) return null;
      await db
        .updateTable('contact_methods')
        .set((eb) => ({ code_tries: eb('code_tries', '+', 1) }))
        .where('id', '=', id)
        .execute();
      return 'wrong';
    },

    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('contact_methods').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    /** The method with its owner, for sending (a test code or an alert). */
    async forSend(id: number): Promise<StoredContactMethod | null> {
      const r = await db
        .selectFrom('contact_methods as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .select([
          'c.id',
          'c.user_id',
          'c.kind',
          'c.label',
          'c.config',
          'c.secrets',
          'c.verified_at',
          'u.name',
          'u.email',
          'u.disabled',
        ])
        .where('c.id', '=', id)
        .executeTakeFirst();
      if (!r) return null;
      return {
        id: Number(r.id),
        userId: Number(r.user_id),
        userName: r.name || r.email,
        userDisabled: Number(r.disabled) === 1,
        kind: r.kind as ContactMethodKind,
        label: r.label,
        config: JSON.parse(r.config) as Record<string, unknown>,
        sealedSecrets: r.secrets,
        verified: r.verified_at !== null,
      };
    },

    async quietHours(userId: number): Promise<QuietHoursWindow[]> {
      const r = await db
        .selectFrom('user_quiet_hours')
        .select('windows')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return readWindows(r?.windows);
    },

    async setQuietHours(userId: number, windows: QuietHoursWindow[], now: number): Promise<void> {
      const json = JSON.stringify(windows);
      await db
        .insertInto('user_quiet_hours')
        .values({ user_id: userId, windows: json, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ windows: json, updated_at: now }))
        .execute();
    },

    async tagPolicies(): Promise<TagPolicy[]> {
      const rows = await db
        .selectFrom('tag_policies')
        .select(['tag', 'policy_id'])
        .orderBy('tag')
        .execute();
      return rows.map((r) => ({ tag: r.tag, policyId: Number(r.policy_id) }));
    },

    /** Replaces the whole list in one transaction. */
    async setTagPolicies(items: readonly TagPolicy[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('tag_policies').execute();
        if (items.length > 0)
          await trx
            .insertInto('tag_policies')
            .values(items.map((i) => ({ tag: i.tag, policy_id: i.policyId })))
            .execute();
      });
    },

    /** Users among `ids` that exist, and schedules among `scheduleIds` that exist. */
    async existing(
      userIds: readonly number[],
      scheduleIds: readonly number[],
    ): Promise<{ users: Set<number>; schedules: Set<number> }> {
      const users =
        userIds.length === 0
          ? []
          : await db
              .selectFrom('users')
              .select('id')
              .where('id', 'in', [...userIds])
              .execute();
      const schedules =
        scheduleIds.length === 0
          ? []
          : await db
              .selectFrom('oncall_schedules')
              .select('id')
              .where('id', 'in', [...scheduleIds])
              .execute();
      return {
        users: new Set(users.map((r) => Number(r.id))),
        schedules: new Set(schedules.map((r) => Number(r.id))),
      };
    },
  };
}

export type ContactMethodsRepository = ReturnType<typeof contactMethodsRepository>;
