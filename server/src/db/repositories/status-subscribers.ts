import type { DeliveryState, Subscriber, SubscriberNotice } from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import { iso, isoOrNull } from '../codecs.js';
import type { OutboxSignal } from '../../lib/outbox-signal.js';
import type { DB, StatusSubscribersTable } from '../schema.js';

const columns = [
  'id',
  'page_id',
  'kind',
  'address',
  'state',
  'token',
  'base_url',
  'created_at',
  'confirmed_at',
] as const;

type Row = Pick<Selectable<StatusSubscribersTable>, (typeof columns)[number]>;

export interface SubscriberRecord {
  id: number;
  pageId: number;
  kind: 'email' | 'webhook';
  address: string;
  state: 'pending' | 'confirmed' | 'unsubscribed';
  token: string;
  baseUrl: string;
}

/** The parts of a page that subscribing and sending need. */
export interface SubscribablePage {
  id: number;
  slug: string;
  title: string;
  customDomain: string | null;
  published: boolean;
  subscriptions: { email: boolean; webhook: boolean; emailChannelId: number | null };
}

const toRecord = (r: Row): SubscriberRecord => ({
  id: Number(r.id),
  pageId: Number(r.page_id),
  kind: r.kind as SubscriberRecord['kind'],
  address: r.address,
  state: r.state as SubscriberRecord['state'],
  token: r.token,
  baseUrl: r.base_url,
});

const toView = (r: Row): Omit<Subscriber, 'lastNotice'> => ({
  id: Number(r.id),
  kind: r.kind as Subscriber['kind'],
  address: r.address,
  state: r.state as Subscriber['state'],
  createdAt: iso(r.created_at),
  confirmedAt: isoOrNull(r.confirmed_at),
});

const pageColumns = ['id', 'slug', 'title', 'custom_domain', 'published', 'subscriptions'] as const;

function toPage(r: {
  id: number;
  slug: string;
  title: string;
  custom_domain: string | null;
  published: number;
  subscriptions: string;
}): SubscribablePage {
  return {
    id: Number(r.id),
    slug: r.slug,
    title: r.title,
    customDomain: r.custom_domain,
    published: Boolean(r.published),
    subscriptions: JSON.parse(r.subscriptions) as SubscribablePage['subscriptions'],
  };
}

/** How the outcome of a subscribe request is told apart (never shown to the visitor). */
export type SubscribeOutcome = 'created' | 'pending' | 'confirmed' | 'returning';

export function statusSubscribersRepository(db: Kysely<DB>, outbox?: OutboxSignal) {
  async function pageWhere(
    column: 'slug' | 'id',
    value: string | number,
  ): Promise<SubscribablePage | null> {
    const row = await db
      .selectFrom('status_pages')
      .select(pageColumns)
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? toPage(row) : null;
  }

  return {
    page: (slug: string) => pageWhere('slug', slug),
    pageById: (id: number) => pageWhere('id', id),

    /**
     * Records a subscription request. An address seen before keeps its row (and token); one
     * that had unsubscribed starts over as pending.
     */
    async upsert(input: {
      pageId: number;
      kind: 'email' | 'webhook';
      address: string;
      token: string;
      baseUrl: string;
      state: 'pending' | 'confirmed';
      now: number;
    }): Promise<{ subscriber: SubscriberRecord; outcome: SubscribeOutcome }> {
      return db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('status_subscribers')
          .select(columns)
          .where('page_id', '=', input.pageId)
          .where('kind', '=', input.kind)
          .where('address', '=', input.address)
          .executeTakeFirst();
        if (existing && existing.state !== 'unsubscribed') {
          return {
            subscriber: toRecord(existing),
            outcome: existing.state === 'confirmed' ? 'confirmed' : 'pending',
          };
        }
        const confirmedAt = input.state === 'confirmed' ? input.now : null;
        const row = existing
          ? await trx
              .updateTable('status_subscribers')
              .set({
                state: input.state,
                base_url: input.baseUrl,
                confirmed_at: confirmedAt,
                unsubscribed_at: null,
              })
              .where('id', '=', existing.id)
              .returning(columns)
              .executeTakeFirstOrThrow()
          : await trx
              .insertInto('status_subscribers')
              .values({
                page_id: input.pageId,
                kind: input.kind,
                address: input.address,
                state: input.state,
                token: input.token,
                base_url: input.baseUrl,
                created_at: input.now,
                confirmed_at: confirmedAt,
              })
              .returning(columns)
              .executeTakeFirstOrThrow();
        return { subscriber: toRecord(row), outcome: existing ? 'returning' : 'created' };
      });
    },

    async byToken(token: string): Promise<SubscriberRecord | null> {
      const row = await db
        .selectFrom('status_subscribers')
        .select(columns)
        .where('token', '=', token)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async byId(id: number): Promise<SubscriberRecord | null> {
      const row = await db
        .selectFrom('status_subscribers')
        .select(columns)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** pending → confirmed; false when it wasn't pending. */
    async confirm(id: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('status_subscribers')
        .set({ state: 'confirmed', confirmed_at: now })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async unsubscribe(id: number, now: number): Promise<void> {
      await db
        .updateTable('status_subscribers')
        .set({ state: 'unsubscribed', unsubscribed_at: now })
        .where('id', '=', id)
        .execute();
    },

    /** A page's subscribers, newest first, each with the outcome of their newest notice. */
    async list(pageId: number): Promise<Subscriber[]> {
      const rows = await db
        .selectFrom('status_subscribers')
        .select(columns)
        .where('page_id', '=', pageId)
        .orderBy('id', 'desc')
        .execute();
      const ids = rows.map((r) => Number(r.id));
      const notices =
        ids.length === 0
          ? []
          : await db
              .selectFrom('deliveries')
              .select(['subscriber_id', 'state', 'attempts', 'last_error', 'created_at', 'sent_at'])
              .where('id', 'in', (eb) =>
                eb
                  .selectFrom('deliveries')
                  .select((e) => e.fn.max('id').as('id'))
                  .where('subscriber_id', 'in', ids)
                  .groupBy('subscriber_id'),
              )
              .execute();
      const last = new Map(notices.map((n) => [Number(n.subscriber_id), n]));
      return rows.map((r) => {
        const n = last.get(Number(r.id));
        return {
          ...toView(r),
          lastNotice: n
            ? {
                state: n.state as DeliveryState,
                attempts: Number(n.attempts),
                at: iso(n.sent_at ?? n.created_at),
                error: n.state === 'sent' ? null : n.last_error,
              }
            : null,
        };
      });
    },

    async remove(pageId: number, id: number): Promise<boolean> {
      const r = await db
        .deleteFrom('status_subscribers')
        .where('page_id', '=', pageId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    mailer: (channelId: number) => subscriberMailer(db, channelId),

    /** Queues one notice for one subscriber (its confirmation mail). */
    async enqueue(subscriberId: number, notice: SubscriberNotice, now: number): Promise<void> {
      await enqueueNotices(db, [subscriberId], () => notice, now);
      outbox?.notify();
    },
  };
}

/** Puts notices in the outbox, one delivery each, ordered per subscriber. */
export async function enqueueNotices(
  db: Kysely<DB>,
  subscriberIds: readonly number[],
  notice: (subscriberId: number) => SubscriberNotice,
  now: number,
): Promise<void> {
  if (subscriberIds.length === 0) return;
  // Chunked: a page with thousands of subscribers stays within bind-parameter limits.
  for (let i = 0; i < subscriberIds.length; i += 500) {
    await db
      .insertInto('deliveries')
      .values(
        subscriberIds.slice(i, i + 500).map((id) => {
          const n = notice(id);
          return {
            channel_id: null,
            subscriber_id: id,
            monitor_id: null,
            order_key: `s:${id}`,
            event_kind: `subscriber.${n.kind}`,
            payload: JSON.stringify(n),
            state: 'queued',
            attempts: 0,
            next_attempt_at: now,
            created_at: now,
          };
        }),
      )
      .execute();
  }
}

/**
 * Confirmed subscribers of published pages that show any of `monitorIds` (every page for
 * `'all'`), with their page: who hears of an incident or a maintenance window.
 */
export async function audienceOf(
  db: Kysely<DB>,
  monitorIds: readonly number[] | 'all',
): Promise<Audience[]> {
  if (monitorIds !== 'all' && monitorIds.length === 0) return [];
  if (monitorIds === 'all' || monitorIds.length <= AUDIENCE_CHUNK) {
    return audienceOfPart(db, monitorIds);
  }
  // A window over thousands of monitors: a bounded `in (…)` list a statement, well under both
  // engines' parameter limits, and each subscriber once however many parts name their page.
  const seen = new Map<number, Audience>();
  for (let i = 0; i < monitorIds.length; i += AUDIENCE_CHUNK) {
    const part = await audienceOfPart(db, monitorIds.slice(i, i + AUDIENCE_CHUNK));
    for (const a of part) if (!seen.has(a.subscriberId)) seen.set(a.subscriberId, a);
  }
  return [...seen.values()].sort((a, b) => a.subscriberId - b.subscriberId);
}

type Audience = { subscriberId: number; kind: string; baseUrl: string; page: SubscribablePage };
/** Monitor ids per statement when looking for who follows them. */
export const AUDIENCE_CHUNK = 1_000;

async function audienceOfPart(
  db: Kysely<DB>,
  monitorIds: readonly number[] | 'all',
): Promise<Audience[]> {
  let q = db
    .selectFrom('status_subscribers as s')
    .innerJoin('status_pages as p', 'p.id', 's.page_id')
    .select([
      's.id as subscriber_id',
      's.kind',
      's.base_url',
      'p.id',
      'p.slug',
      'p.title',
      'p.custom_domain',
      'p.published',
      'p.subscriptions',
    ])
    .where('s.state', '=', 'confirmed')
    .where('p.published', '=', 1);
  if (monitorIds !== 'all') {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('status_page_components as c')
          .select('c.id')
          .whereRef('c.page_id', '=', 'p.id')
          .where('c.monitor_id', 'in', [...monitorIds]),
      ),
    );
  }
  const rows = await q.execute();
  return rows
    .map((r) => ({
      subscriberId: Number(r.subscriber_id),
      kind: r.kind,
      baseUrl: r.base_url,
      page: toPage(r),
    }))
    .filter((r) => r.page.subscriptions[r.kind as 'email' | 'webhook'] === true);
}

export type StatusSubscribersRepository = ReturnType<typeof statusSubscribersRepository>;

/** Builds the notice one subscriber of `page` gets; `baseUrl` is where its links point. */
export type NoticeBuilder = (page: SubscribablePage, subscribedFrom: string) => SubscriberNotice;

/**
 * Queues a notice for everyone following a published page that shows any of `monitorIds`, in
 * the caller's transaction: the change and its notices commit together.
 */
export async function noticeSubscribers(
  db: Kysely<DB>,
  monitorIds: readonly number[] | 'all',
  build: NoticeBuilder,
  now: number,
): Promise<number> {
  const audience = await audienceOf(db, monitorIds);
  const byId = new Map(audience.map((a) => [a.subscriberId, a]));
  await enqueueNotices(
    db,
    audience.map((a) => a.subscriberId),
    (id) => {
      const a = byId.get(id)!;
      return build(a.page, a.baseUrl);
    },
    now,
  );
  return audience.length;
}

/** The email channel that sends a page's subscriber mail: its settings, secrets still sealed. */
export async function subscriberMailer(
  db: Kysely<DB>,
  channelId: number,
): Promise<{ config: string; secrets: string | null } | null> {
  const row = await db
    .selectFrom('notification_channels')
    .select(['config', 'secrets'])
    .where('id', '=', channelId)
    .where('kind', '=', 'email')
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return row ?? null;
}
