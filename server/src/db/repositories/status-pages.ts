import {
  StatusPageShow,
  StatusPageTheme,
  type StatusPage,
  type StatusPageInput,
  type StatusPageList,
} from '@pagewatch/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import { iso } from '../codecs.js';
import type { DB, StatusPagesTable } from '../schema.js';

type Db = Kysely<DB> | Transaction<DB>;
/** The input after zod filled its defaults. */
export type StatusPageValues = z.output<typeof StatusPageInput>;

const columns = [
  'id',
  'slug',
  'title',
  'description',
  'custom_domain',
  'show',
  'theme',
  'subscriptions',
  'footer',
  'published',
  'time_zone',
  'logo_hash',
  'created_at',
  'updated_at',
] as const;
type Row = Pick<Selectable<StatusPagesTable>, (typeof columns)[number]>;

export interface StoredLogo {
  bytes: Buffer;
  type: string;
  hash: string;
}

/** Which unique field a write collided on; the service names it in the answer. */
export class UniqueFieldTaken extends Error {
  constructor(readonly field: 'slug' | 'customDomain') {
    super(`${field} is taken`);
  }
}

const isUniqueViolation = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
};

const logoPath = (id: number, hash: string | null) =>
  hash === null ? null : `/api/v1/status-pages/${id}/logo?v=${hash}`;

function toPage(r: Row, sections: StatusPage['sections']): StatusPage {
  const id = Number(r.id);
  return {
    id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    customDomain: r.custom_domain,
    sections,
    // Written from validated input only; parsing again restores defaults and types.
    show: StatusPageShow.parse(JSON.parse(r.show)),
    theme: StatusPageTheme.parse(JSON.parse(r.theme)),
    footer: r.footer,
    published: Number(r.published) === 1,
    timeZone: r.time_zone,
    subscriptions: JSON.parse(r.subscriptions) as StatusPage['subscriptions'],
    logoUrl: logoPath(id, r.logo_hash),
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

const definition = (p: StatusPageValues) => ({
  slug: p.slug,
  title: p.title,
  description: p.description,
  custom_domain: p.customDomain,
  show: JSON.stringify(p.show),
  theme: JSON.stringify(p.theme),
  subscriptions: JSON.stringify(p.subscriptions),
  footer: p.footer,
  published: p.published ? 1 : 0,
  time_zone: p.timeZone,
});

async function sectionsOf(db: Db, pageId: number): Promise<StatusPage['sections']> {
  const sections = await db
    .selectFrom('status_page_sections')
    .select(['id', 'title'])
    .where('page_id', '=', pageId)
    .orderBy('position')
    .execute();
  const components = await db
    .selectFrom('status_page_components as c')
    .innerJoin('monitors as m', 'm.id', 'c.monitor_id')
    .select([
      'c.section_id',
      'c.monitor_id',
      'c.display_name',
      'c.description',
      'c.show_locations',
      'm.name',
    ])
    .where('c.page_id', '=', pageId)
    .orderBy('c.position')
    .execute();
  return sections.map((s) => ({
    title: s.title,
    components: components
      .filter((c) => Number(c.section_id) === Number(s.id))
      .map((c) => ({
        monitorId: Number(c.monitor_id),
        displayName: c.display_name,
        description: c.description,
        showLocations: Number(c.show_locations) === 1,
        monitorName: c.name,
      })),
  }));
}

/** Replaces the page's sections and components, keeping the order given. */
async function writeSections(trx: Db, pageId: number, sections: StatusPageValues['sections']) {
  await trx.deleteFrom('status_page_components').where('page_id', '=', pageId).execute();
  await trx.deleteFrom('status_page_sections').where('page_id', '=', pageId).execute();
  for (const [position, s] of sections.entries()) {
    const { id } = await trx
      .insertInto('status_page_sections')
      .values({ page_id: pageId, position, title: s.title })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (s.components.length === 0) continue;
    await trx
      .insertInto('status_page_components')
      .values(
        s.components.map((c, i) => ({
          page_id: pageId,
          section_id: Number(id),
          position: i,
          monitor_id: c.monitorId,
          display_name: c.displayName,
          description: c.description,
          show_locations: c.showLocations ? 1 : 0,
        })),
      )
      .execute();
  }
}

export function statusPagesRepository(db: Kysely<DB>) {
  async function load(d: Db, id: number): Promise<StatusPage | null> {
    const row = await d
      .selectFrom('status_pages')
      .select(columns)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPage(row, await sectionsOf(d, id)) : null;
  }

  /** Tells which unique field a failed write collided on (the other may be the culprit). */
  async function collision(p: StatusPageValues, id: number | null): Promise<UniqueFieldTaken> {
    const taken = await db
      .selectFrom('status_pages')
      .select(['id', 'slug'])
      .where((eb) =>
        eb.or([
          eb('slug', '=', p.slug),
          ...(p.customDomain ? [eb('custom_domain', '=', p.customDomain)] : []),
        ]),
      )
      .execute();
    const other = taken.find((t) => Number(t.id) !== id);
    return new UniqueFieldTaken(other && other.slug === p.slug ? 'slug' : 'customDomain');
  }

  async function guarded<T>(p: StatusPageValues, id: number | null, run: () => Promise<T>) {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw await collision(p, id);
      throw err;
    }
  }

  return {
    findById: (id: number): Promise<StatusPage | null> => load(db, id),

    async list(): Promise<StatusPageList['items']> {
      const rows = await db
        .selectFrom('status_pages as p')
        .select((eb) => [
          'p.id',
          'p.slug',
          'p.title',
          'p.published',
          'p.custom_domain',
          'p.updated_at',
          eb
            .selectFrom('status_page_components as c')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('c.page_id', '=', 'p.id')
            .as('components'),
          eb
            .selectFrom('status_subscribers as s')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('s.page_id', '=', 'p.id')
            .where('s.state', '=', 'confirmed')
            .as('subscribers'),
        ])
        .orderBy('p.title')
        .orderBy('p.id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        slug: r.slug,
        title: r.title,
        published: Number(r.published) === 1,
        customDomain: r.custom_domain,
        componentCount: Number(r.components ?? 0),
        subscriberCount: Number(r.subscribers ?? 0),
        updatedAt: iso(Number(r.updated_at)),
      }));
    },

    /** Throws UniqueFieldTaken when the slug or custom domain belongs to another page. */
    async insert(p: StatusPageValues, now: number): Promise<StatusPage> {
      return guarded(p, null, () =>
        db.transaction().execute(async (trx) => {
          const { id } = await trx
            .insertInto('status_pages')
            .values({ ...definition(p), created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          await writeSections(trx, Number(id), p.sections);
          return (await load(trx, Number(id)))!;
        }),
      );
    },

    /** Null when there is no such page; throws UniqueFieldTaken like insert. */
    async replace(id: number, p: StatusPageValues, now: number): Promise<StatusPage | null> {
      return guarded(p, id, () =>
        db.transaction().execute(async (trx) => {
          const r = await trx
            .updateTable('status_pages')
            .set({ ...definition(p), updated_at: now })
            .where('id', '=', id)
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) === 0) return null;
          await writeSections(trx, id, p.sections);
          return load(trx, id);
        }),
      );
    },

    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('status_pages').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** Stores (or with null, removes) the logo; false when there is no such page. */
    async setLogo(id: number, logo: StoredLogo | null, now: number): Promise<boolean> {
      const r = await db
        .updateTable('status_pages')
        .set({
          logo: logo?.bytes ?? null,
          logo_type: logo?.type ?? null,
          logo_hash: logo?.hash ?? null,
          updated_at: now,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async getLogo(id: number): Promise<StoredLogo | null> {
      const row = await db
        .selectFrom('status_pages')
        .select(['logo', 'logo_type', 'logo_hash'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row?.logo || !row.logo_type || !row.logo_hash) return null;
      return { bytes: Buffer.from(row.logo), type: row.logo_type, hash: row.logo_hash };
    },

    /** The ids among `ids` that name existing monitors. */
    async existingMonitors(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('monitors').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((r) => Number(r.id)));
    },

    /** Whether `id` names a notification channel of kind 'email'. */
    async isEmailChannel(id: number): Promise<boolean> {
      const row = await db
        .selectFrom('notification_channels')
        .select('id')
        .where('id', '=', id)
        .where('kind', '=', 'email')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type StatusPagesRepository = ReturnType<typeof statusPagesRepository>;
