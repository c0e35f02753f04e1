import {
  StatusPageShow,
  StatusPageTheme,
  type CheckOutcome,
  type MonitorStatus,
} from '@pagewatch/contract';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Span } from '../../domain/rollup.js';
import type { DB, StatusPagesTable } from '../schema.js';
import { publicIncidents, type PublicIncidentRecord } from './status-public-incidents.js';
import { unannouncedIncidents } from './status-unannounced.js';

export type { PublicIncidentRecord } from './status-public-incidents.js';

/**
 * What the public side of status pages reads: published pages, their components with each
 * monitor's live state, daily rollups and public incident updates. Every read is batched over
 * the page's monitors, so a render costs a handful of queries whatever its size. Nothing here
 * selects a monitor's target, settings, errors, tags or description.
 */

const pageColumns = [
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
  'updated_at',
] as const;
type PageRow = Pick<Selectable<StatusPagesTable>, (typeof pageColumns)[number]>;

export interface PublicPageRecord {
  id: number;
  slug: string;
  title: string;
  description: string;
  customDomain: string | null;
  show: StatusPageShow;
  theme: StatusPageTheme;
  /** Only whether visitors may subscribe at all. */
  subscribable: boolean;
  footer: string;
  published: boolean;
  /** Where times are written for visitors without script. */
  timeZone: string;
  logoHash: string | null;
  updatedAt: number;
}

/** A monitor as a public page may know it: no target, settings or error text. */
export interface PublicMonitorState {
  monitorId: number;
  name: string;
  paused: boolean;
  status: MonitorStatus;
  lastLatencyUs: number | null;
  lastCheckAt: number | null;
}

export interface PublicComponentRecord extends PublicMonitorState {
  displayName: string;
  description: string;
  /** Shows each location's status (ADR 66). */
  showLocations: boolean;
}

export interface PublicSectionRecord {
  title: string;
  components: PublicComponentRecord[];
}

export interface DayCounts {
  monitorId: number;
  day: number;
  checks: number;
  up: number;
  degraded: number;
  down: number;
}

export interface HourLatency {
  monitorId: number;
  /** Start of the hour, ms. */
  hour: number;
  sumUs: number;
  count: number;
}

/** A monitor's locations and their live verdicts, as a public page may know them (ADR 66). */
export interface PublicLocationState {
  monitorId: number;
  intervalS: number;
  /** Its chosen locations in id order, with their names now; only monitors that chose some. */
  locations: { id: string; name: string }[];
  verdicts: { locationId: string; outcome: CheckOutcome; checkedAt: number }[];
}

export interface BadgeSubject extends PublicMonitorState {
  displayName: string;
  pageId: number;
}

function toPage(r: PageRow): PublicPageRecord {
  const subs = JSON.parse(r.subscriptions) as { email?: boolean; webhook?: boolean };
  return {
    id: Number(r.id),
    slug: r.slug,
    title: r.title,
    description: r.description,
    customDomain: r.custom_domain,
    show: StatusPageShow.parse(JSON.parse(r.show)),
    theme: StatusPageTheme.parse(JSON.parse(r.theme)),
    subscribable: Boolean(subs.email || subs.webhook),
    footer: r.footer,
    published: Number(r.published) === 1,
    timeZone: r.time_zone,
    logoHash: r.logo_hash,
    updatedAt: Number(r.updated_at),
  };
}

const monitorColumns = [
  'monitors.id as monitor_id',
  'monitors.name as monitor_name',
  'monitors.paused',
  'monitors.status',
  'monitors.last_latency_us',
  'monitors.last_check_at',
] as const;

interface MonitorRow {
  monitor_id: number;
  monitor_name: string;
  paused: number;
  status: string;
  last_latency_us: number | null;
  last_check_at: number | string | null;
}

const toState = (r: MonitorRow): PublicMonitorState => ({
  monitorId: Number(r.monitor_id),
  name: r.monitor_name,
  paused: Number(r.paused) === 1,
  status: r.status as MonitorStatus,
  lastLatencyUs: r.last_latency_us === null ? null : Number(r.last_latency_us),
  lastCheckAt: r.last_check_at === null ? null : Number(r.last_check_at),
});

const DAY_MS = 86_400_000;
const num = (v: unknown): number => Number(v ?? 0);

export function statusPublicRepository(db: Kysely<DB>) {
  const pages = () => db.selectFrom('status_pages').select(pageColumns);

  return {
    /** A page by slug, published or not (previews read drafts; routes check `published`). */
    async bySlug(slug: string): Promise<PublicPageRecord | null> {
      const r = await pages().where('slug', '=', slug).executeTakeFirst();
      return r ? toPage(r) : null;
    },

    async byId(id: number): Promise<PublicPageRecord | null> {
      const r = await pages().where('id', '=', id).executeTakeFirst();
      return r ? toPage(r) : null;
    },

    /** Custom domains of published pages, for routing by Host header. */
    async publishedDomains(): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('status_pages')
        .select(['id', 'custom_domain'])
        .where('published', '=', 1)
        .where('custom_domain', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [String(r.custom_domain), Number(r.id)]));
    },

    async logo(pageId: number): Promise<{ bytes: Buffer; type: string; hash: string } | null> {
      const r = await db
        .selectFrom('status_pages')
        .select(['logo', 'logo_type', 'logo_hash'])
        .where('id', '=', pageId)
        .executeTakeFirst();
      if (!r?.logo || !r.logo_type || !r.logo_hash) return null;
      return { bytes: Buffer.from(r.logo), type: r.logo_type, hash: r.logo_hash };
    },

    /** Sections in order, each with its components and their monitors' live state. */
    async layout(pageId: number): Promise<PublicSectionRecord[]> {
      const [sections, components] = await Promise.all([
        db
          .selectFrom('status_page_sections')
          .select(['id', 'title'])
          .where('page_id', '=', pageId)
          .orderBy('position')
          .execute(),
        db
          .selectFrom('status_page_components')
          .innerJoin('monitors', 'monitors.id', 'status_page_components.monitor_id')
          .select([
            'section_id',
            'display_name',
            'status_page_components.description',
            'status_page_components.show_locations',
          ])
          .select(monitorColumns)
          .where('page_id', '=', pageId)
          .orderBy('position')
          .execute(),
      ]);
      return sections.map((s) => ({
        title: s.title,
        components: components
          .filter((c) => Number(c.section_id) === Number(s.id))
          .map((c) => ({
            ...toState(c),
            displayName: c.display_name,
            description: c.description,
            showLocations: Number(c.show_locations) === 1,
          })),
      }));
    },

    /** Live state of these monitors (a draft page's components); missing ids are absent. */
    async monitorStates(ids: readonly number[]): Promise<Map<number, PublicMonitorState>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('monitors')
        .select(monitorColumns)
        .where('monitors.id', 'in', ids)
        .execute();
      return new Map(rows.map((r) => [Number(r.monitor_id), toState(r)]));
    },

    /**
     * The chosen locations (with names) and live verdicts of these monitors, three reads
     * however many; monitors of `local` alone (no rows) are absent. No error text is read.
     */
    async locationStates(ids: readonly number[]): Promise<Map<number, PublicLocationState>> {
      const out = new Map<number, PublicLocationState>();
      if (ids.length === 0) return out;
      const [links, verdicts, intervals] = await Promise.all([
        db
          .selectFrom('monitor_locations as ml')
          .leftJoin('locations as l', 'l.id', 'ml.location_id')
          .select(['ml.monitor_id', 'ml.location_id', 'l.name'])
          .where('ml.monitor_id', 'in', ids)
          .orderBy('ml.monitor_id')
          .orderBy('ml.location_id')
          .execute(),
        db
          .selectFrom('monitor_location_verdicts')
          .select(['monitor_id', 'location_id', 'status', 'checked_at'])
          .where('monitor_id', 'in', ids)
          .execute(),
        db.selectFrom('monitors').select(['id', 'interval_s']).where('id', 'in', ids).execute(),
      ]);
      const intervalOf = new Map(intervals.map((r) => [Number(r.id), Number(r.interval_s)]));
      for (const r of links) {
        const id = Number(r.monitor_id);
        let state = out.get(id);
        if (!state) {
          state = {
            monitorId: id,
            intervalS: intervalOf.get(id) ?? 60,
            locations: [],
            verdicts: [],
          };
          out.set(id, state);
        }
        state.locations.push({ id: r.location_id, name: r.name ?? r.location_id });
      }
      for (const v of verdicts) {
        out.get(Number(v.monitor_id))?.verdicts.push({
          locationId: v.location_id,
          outcome: v.status as CheckOutcome,
          checkedAt: Number(v.checked_at),
        });
      }
      return out;
    },

    /** Day rollups of these monitors with buckets in [from, to]. */
    async days(ids: readonly number[], from: number, to: number): Promise<DayCounts[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('rollup_day')
        .select(['monitor_id', 'bucket', 'checks', 'up', 'degraded', 'down'])
        .where('monitor_id', 'in', ids)
        .where('bucket', '>=', from)
        .where('bucket', '<=', to)
        .execute();
      return rows.map((r) => ({
        monitorId: Number(r.monitor_id),
        day: Number(r.bucket),
        checks: num(r.checks),
        up: num(r.up),
        degraded: num(r.degraded),
        down: num(r.down),
      }));
    },

    /** Mean latency (µs sum and count) per monitor and hour, for buckets in [from, to]. */
    async hourlyLatency(ids: readonly number[], from: number, to: number): Promise<HourLatency[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('rollup_hour')
        .select(['monitor_id', 'bucket', 'latency_sum_us', 'latency_count'])
        .where('monitor_id', 'in', ids)
        .where('bucket', '>=', from)
        .where('bucket', '<=', to)
        .where('latency_count', '>', 0)
        .execute();
      return rows.map((r) => ({
        monitorId: Number(r.monitor_id),
        hour: Number(r.bucket),
        sumUs: num(r.latency_sum_us),
        count: num(r.latency_count),
      }));
    },

    /**
     * The minutes since `from` in which these monitors had a failed check: whether a day's
     * failures all fell inside maintenance (minute rollups are kept at least two days).
     */
    async downMinutes(
      ids: readonly number[],
      from: number,
    ): Promise<{ monitorId: number; minute: number }[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('rollup_minute')
        .select(['monitor_id', 'bucket'])
        .where('monitor_id', 'in', ids)
        .where('bucket', '>=', from)
        .where('down', '>', 0)
        .execute();
      return rows.map((r) => ({ monitorId: Number(r.monitor_id), minute: Number(r.bucket) }));
    },

    /** Open incidents on published pages' components with no public word yet. */
    unannounced: () => unannouncedIncidents(db),

    /** Outages (flips to down) per monitor and UTC day since `from`. */
    async outages(ids: readonly number[], from: number): Promise<DayCounts[]> {
      if (ids.length === 0) return [];
      const day = sql<number>`(at / ${sql.lit(DAY_MS)}) * ${sql.lit(DAY_MS)}`;
      const rows = await db
        .selectFrom('status_flips')
        .select((eb) => ['monitor_id', day.as('day'), eb.fn.countAll<number>().as('n')])
        .where('monitor_id', 'in', ids)
        .where('to_status', '=', 'down')
        .where('at', '>=', from)
        .groupBy(['monitor_id', day])
        .execute();
      return rows.map((r) => ({
        monitorId: Number(r.monitor_id),
        day: Number(r.day),
        checks: 0,
        up: 0,
        degraded: 0,
        down: num(r.n),
      }));
    },

    /** Summed check counts of one monitor over these spans (badges' uptime windows). */
    async totals(monitorId: number, spans: readonly Span[]) {
      let checks = 0;
      let delivered = 0;
      for (const s of spans) {
        const r = await db
          .selectFrom(`rollup_${s.level}` as 'rollup_day')
          .select((eb) => [
            eb.fn.sum<number>('checks').as('checks'),
            eb.fn.sum<number>('up').as('up'),
            eb.fn.sum<number>('degraded').as('degraded'),
          ])
          .where('monitor_id', '=', monitorId)
          .where('bucket', '>=', s.from)
          .where('bucket', '<=', s.to)
          .executeTakeFirst();
        checks += num(r?.checks);
        delivered += num(r?.up) + num(r?.degraded);
      }
      return { checks, delivered };
    },

    activeIncidents: (ids: readonly number[]) => publicIncidents(db, ids, { open: true }),
    incidentsSince: (ids: readonly number[], since: number) => publicIncidents(db, ids, { since }),
    async incident(ids: readonly number[], id: number): Promise<PublicIncidentRecord | null> {
      return (await publicIncidents(db, ids, { id }))[0] ?? null;
    },

    /** The monitor as the first published page showing it names it; null if none does. */
    async badgeSubject(monitorId: number): Promise<BadgeSubject | null> {
      const r = await db
        .selectFrom('status_page_components')
        .innerJoin('status_pages', 'status_pages.id', 'status_page_components.page_id')
        .innerJoin('monitors', 'monitors.id', 'status_page_components.monitor_id')
        .select(['display_name', 'status_pages.id as page_id'])
        .select(monitorColumns)
        .where('status_page_components.monitor_id', '=', monitorId)
        .where('status_pages.published', '=', 1)
        .orderBy('status_pages.id')
        .limit(1)
        .executeTakeFirst();
      return r ? { ...toState(r), displayName: r.display_name, pageId: Number(r.page_id) } : null;
    },

    /** The published pages showing this monitor (its badges exist while there is one). */
    async badgePages(monitorId: number): Promise<{ id: number; slug: string; title: string }[]> {
      const rows = await db
        .selectFrom('status_page_components')
        .innerJoin('status_pages', 'status_pages.id', 'status_page_components.page_id')
        .select(['status_pages.id', 'status_pages.slug', 'status_pages.title'])
        .where('status_page_components.monitor_id', '=', monitorId)
        .where('status_pages.published', '=', 1)
        .orderBy('status_pages.id')
        .execute();
      return rows.map((r) => ({ id: Number(r.id), slug: r.slug, title: r.title }));
    },
  };
}

export type StatusPublicRepository = ReturnType<typeof statusPublicRepository>;
