import type {
  CheckErrorCode,
  Incident,
  IncidentDetail,
  IncidentListFilter,
  IncidentMonitorRef,
  IncidentSeverity,
  IncidentState,
  IncidentUpdate,
} from '@pagewatch/contract';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  autoTitle,
  publicAutoTitle,
  shownName,
  openedMessage,
  resolvedMessage,
  type FailureCause,
  type IncidentLifecycle,
} from '../../domain/incidents.js';
import type { IncidentAlertKind } from '../../domain/alerting/index.js';
import type { OutboxSignal } from '../../lib/outbox-signal.js';
import { incidentNotice, noticeBaseUrl } from '../../domain/subscriber-notices.js';
import { noticeSubscribers } from './status-subscribers.js';
import { iso, isoOrNull } from '../codecs.js';
import type { DB, IncidentUpdatesTable, IncidentsTable } from '../schema.js';
import { enqueueIncidentAlert } from './deliveries.js';

type Db = Kysely<DB> | Transaction<DB>;

const columns = [
  'id',
  'monitor_id',
  'automatic',
  'title',
  'state',
  'severity',
  'started_at',
  'resolved_at',
  'cause_at',
  'cause_code',
  'cause_message',
  'created_at',
  'updated_at',
] as const;
type Row = Pick<Selectable<IncidentsTable>, (typeof columns)[number]>;

const updateColumns = [
  'id',
  'at',
  'state',
  'message',
  'public',
  'automatic',
  'author_id',
  'author_label',
] as const;
type UpdateRow = Pick<Selectable<IncidentUpdatesTable>, (typeof updateColumns)[number]>;

/** The label of updates Pagewatch writes itself. */
export const SYSTEM_AUTHOR = 'Pagewatch';

export interface Author {
  id: number | null;
  label: string;
}

export interface NewIncident {
  title: string;
  severity: IncidentSeverity;
  state: IncidentState;
  message: string;
  public: boolean;
  monitorIds: readonly number[];
  author: Author;
}

export interface NewUpdate {
  state: IncidentState;
  message: string;
  public: boolean;
  author: Author;
}

export interface IncidentPageQuery {
  state: IncidentListFilter;
  monitorId?: number | undefined;
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

function toIncident(r: Row, monitors: IncidentMonitorRef[]): Incident {
  return {
    id: r.id,
    title: r.title,
    state: r.state as IncidentState,
    severity: r.severity as IncidentSeverity,
    automatic: r.automatic === 1,
    monitorId: r.monitor_id,
    monitors,
    startedAt: iso(r.started_at),
    resolvedAt: isoOrNull(r.resolved_at),
    cause:
      r.cause_at === null
        ? null
        : {
            at: iso(r.cause_at),
            code: r.cause_code as CheckErrorCode | null,
            message: r.cause_message,
          },
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

const toUpdate = (u: UpdateRow): IncidentUpdate => ({
  id: u.id,
  at: iso(u.at),
  state: u.state as IncidentState,
  message: u.message,
  public: u.public === 1,
  author: { id: u.author_id, label: u.author_label },
  automatic: u.automatic === 1,
});

/** Open incidents sort before resolved ones; the cursor carries this flag, start and id. */
const resolvedFlag = sql<number>`case when resolved_at is null then 0 else 1 end`;

const cursorOf = (r: Row): string => `${r.resolved_at === null ? 0 : 1}.${r.started_at}.${r.id}`;

async function monitorsOf(db: Db, ids: readonly number[]) {
  const byIncident = new Map<number, IncidentMonitorRef[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byIncident;
  const rows = await db
    .selectFrom('incident_monitors as im')
    .innerJoin('monitors as m', 'm.id', 'im.monitor_id')
    .select(['im.incident_id', 'm.id', 'm.name'])
    .where('im.incident_id', 'in', ids)
    .orderBy('m.name')
    .orderBy('m.id')
    .execute();
  for (const r of rows) byIncident.get(r.incident_id)?.push({ id: r.id, name: r.name });
  return byIncident;
}

async function load(db: Db, id: number): Promise<Incident | null> {
  const row = await db
    .selectFrom('incidents')
    .select(columns)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return toIncident(row, (await monitorsOf(db, [id])).get(id) ?? []);
}

async function insertUpdate(
  db: Db,
  incidentId: number,
  at: number,
  u: NewUpdate,
  automatic: boolean,
) {
  await db
    .insertInto('incident_updates')
    .values({
      incident_id: incidentId,
      at,
      state: u.state,
      message: u.message,
      public: u.public ? 1 : 0,
      automatic: automatic ? 1 : 0,
      author_id: u.author.id,
      author_label: u.author.label,
    })
    .execute();
}

async function setMonitors(db: Db, incidentId: number, monitorIds: readonly number[]) {
  await db.deleteFrom('incident_monitors').where('incident_id', '=', incidentId).execute();
  if (monitorIds.length === 0) return;
  await db
    .insertInto('incident_monitors')
    .values(monitorIds.map((monitor_id) => ({ incident_id: incidentId, monitor_id })))
    .execute();
}

/**
 * The automatic incident of this outage: open, or resolved (by hand) at or after the outage
 * began, so resolving it while the monitor is still down doesn't open another on the next check.
 */
async function outageIncident(db: Db, monitorId: number, streakStart: number) {
  return db
    .selectFrom('incidents')
    .select('id')
    .where('monitor_id', '=', monitorId)
    .where('automatic', '=', 1)
    .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', streakStart)]))
    .limit(1)
    .executeTakeFirst();
}

/**
 * Opens the automatic incident of a monitor that is down, inside the result write's
 * transaction; null when the outage already has one. The cause and start are the streak's
 * first failure (the check being written when that is unknown, e.g. after a restart).
 */
export async function openAutoIncident(
  trx: Transaction<DB>,
  monitorId: number,
  cause: FailureCause,
  now: number,
): Promise<Incident | null> {
  if (await outageIncident(trx, monitorId, cause.at)) return null;
  const monitor = await trx
    .selectFrom('monitors')
    .select('name')
    .where('id', '=', monitorId)
    .executeTakeFirst();
  if (!monitor) return null;
  const { id } = await trx
    .insertInto('incidents')
    .values({
      monitor_id: monitorId,
      automatic: 1,
      title: autoTitle(monitor.name),
      title_auto: 1,
      state: 'investigating',
      severity: 'major',
      started_at: cause.at,
      resolved_at: null,
      cause_at: cause.at,
      cause_code: cause.code,
      cause_message: cause.message,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await setMonitors(trx, id, [monitorId]);
  // Error messages can name internal hosts: the team decides what the public sees.
  await insertUpdate(
    trx,
    id,
    cause.at,
    {
      state: 'investigating',
      message: openedMessage(cause),
      public: false,
      author: { id: null, label: SYSTEM_AUTHOR },
    },
    true,
  );
  return load(trx, id);
}

/** Resolves a recovered monitor's open automatic incident; declared incidents are left alone. */
export async function resolveAutoIncident(
  trx: Transaction<DB>,
  monitorId: number,
  at: number,
): Promise<Incident | null> {
  const open = await trx
    .selectFrom('incidents')
    .select(['id', 'started_at'])
    .where('monitor_id', '=', monitorId)
    .where('automatic', '=', 1)
    .where('resolved_at', 'is', null)
    .execute();
  let last: Incident | null = null;
  for (const incident of open) {
    const resolvedAt = Math.max(at, incident.started_at);
    await trx
      .updateTable('incidents')
      .set({ state: 'resolved', resolved_at: resolvedAt, updated_at: at })
      .where('id', '=', incident.id)
      .execute();
    await insertUpdate(
      trx,
      incident.id,
      resolvedAt,
      {
        state: 'resolved',
        message: resolvedMessage(resolvedAt - incident.started_at),
        public: false,
        author: { id: null, label: SYSTEM_AUTHOR },
      },
      true,
    );
    last = await load(trx, incident.id);
  }
  return last;
}

/**
 * A public update tells the subscribers of published pages that show the incident's monitors;
 * private updates (and automatic ones, which may name internal hosts) tell nobody outside.
 */
async function noticeFollowers(
  trx: Transaction<DB>,
  incident: Incident,
  update: NewUpdate,
  publicUrl: string | null,
  now: number,
): Promise<number> {
  if (!update.public) return 0;
  const monitorIds = incident.monitors.map((m) => m.id);
  const titleOn = await publicTitles(trx, incident, monitorIds);
  return noticeSubscribers(
    trx,
    monitorIds,
    (page, from) =>
      incidentNotice(
        page,
        noticeBaseUrl(page, publicUrl, from),
        {
          id: incident.id,
          title: titleOn(page.id),
          state: incident.state,
          severity: incident.severity,
          message: update.message,
        },
        now,
      ),
    now,
  );
}

/** The incident's title as each status page says it (Pagewatch's own names the monitor). */
async function publicTitles(
  trx: Transaction<DB>,
  incident: Incident,
  monitorIds: readonly number[],
): Promise<(pageId: number) => string> {
  const row = await trx
    .selectFrom('incidents')
    .select('title_auto')
    .where('id', '=', incident.id)
    .executeTakeFirst();
  if (Number(row?.title_auto) !== 1 || monitorIds.length === 0) return () => incident.title;
  const shown = await trx
    .selectFrom('status_page_components as c')
    .innerJoin('monitors as m', 'm.id', 'c.monitor_id')
    .select(['c.page_id', 'c.display_name', 'm.name'])
    .where('c.monitor_id', 'in', monitorIds)
    .orderBy('c.page_id')
    .orderBy('c.position')
    .execute();
  return (pageId) =>
    publicAutoTitle(
      shown
        .filter((r) => Number(r.page_id) === pageId)
        .map((r) => shownName({ displayName: r.display_name, name: r.name })),
    );
}

export function incidentsRepository(db: Kysely<DB>, outbox?: OutboxSignal) {
  /** Runs a change and its alert in one transaction; rings the outbox once it committed. */
  async function withAlert<T>(
    change: (trx: Transaction<DB>) => Promise<{ value: T; queued: number }>,
  ): Promise<T> {
    const { value, queued } = await db.transaction().execute(change);
    if (queued > 0) outbox?.notify();
    return value;
  }

  return {
    async insert(
      input: NewIncident,
      now: number,
      publicUrl: string | null = null,
    ): Promise<Incident> {
      return withAlert(async (trx) => {
        const { id } = await trx
          .insertInto('incidents')
          .values({
            monitor_id: null,
            automatic: 0,
            title: input.title,
            state: input.state,
            severity: input.severity,
            started_at: now,
            resolved_at: null,
            cause_at: null,
            cause_code: null,
            cause_message: null,
            created_by: input.author.id,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setMonitors(trx, id, input.monitorIds);
        await insertUpdate(trx, id, now, input, false);
        const incident = (await load(trx, id))!;
        const queued = await enqueueIncidentAlert(
          trx,
          incident,
          'incident.created',
          input.message,
          now,
        );
        const told = await noticeFollowers(trx, incident, input, publicUrl, now);
        return { value: incident, queued: queued + told };
      });
    },

    findById: (id: number) => load(db, id),

    async detail(id: number): Promise<IncidentDetail | null> {
      const incident = await load(db, id);
      if (!incident) return null;
      return { ...incident, updates: await this.updates(id) };
    },

    /** Newest first; ties (same millisecond) by insertion order. */
    async updates(incidentId: number): Promise<IncidentUpdate[]> {
      const rows = await db
        .selectFrom('incident_updates')
        .select(updateColumns)
        .where('incident_id', '=', incidentId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toUpdate);
    },

    async page(q: IncidentPageQuery): Promise<{ items: Incident[]; nextCursor: string | null }> {
      let query = db
        .selectFrom('incidents')
        .select(columns)
        .orderBy(resolvedFlag)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(q.limit + 1);
      if (q.state === 'open') query = query.where('resolved_at', 'is', null);
      if (q.state === 'resolved') query = query.where('resolved_at', 'is not', null);
      if (q.state !== 'open' && q.state !== 'resolved' && q.state !== 'all') {
        query = query.where('state', '=', q.state);
      }
      if (q.q) {
        // lower() on both sides: SQLite's LIKE and PostgreSQL's differ in case rules.
        const pattern = `%${q.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(sql<boolean>`lower(title) like ${pattern} escape '\\'`);
      }
      if (q.from) query = query.where('started_at', '>=', Date.parse(q.from));
      if (q.to) query = query.where('started_at', '<', Date.parse(q.to));
      if (q.monitorId !== undefined) {
        const monitorId = q.monitorId;
        query = query.where('id', 'in', (eb) =>
          eb
            .selectFrom('incident_monitors')
            .select('incident_id')
            .where('monitor_id', '=', monitorId),
        );
      }
      if (q.cursor) {
        const [flag, started, id] = q.cursor.split('.').map(Number) as [number, number, number];
        query = query.where((eb) =>
          eb.or([
            eb(resolvedFlag, '>', flag),
            eb.and([
              eb(resolvedFlag, '=', flag),
              eb.or([
                eb('started_at', '<', started),
                eb.and([eb('started_at', '=', started), eb('id', '<', id)]),
              ]),
            ]),
          ]),
        );
      }
      const rows = await query.execute();
      const page = rows.slice(0, q.limit);
      const monitors = await monitorsOf(
        db,
        page.map((r) => r.id),
      );
      return {
        items: page.map((r) => toIncident(r, monitors.get(r.id) ?? [])),
        nextCursor: rows.length > q.limit && page.length > 0 ? cursorOf(page.at(-1)!) : null,
      };
    },

    async edit(
      id: number,
      changes: { title?: string; severity?: IncidentSeverity; monitorIds?: readonly number[] },
      now: number,
    ): Promise<Incident | null> {
      return db.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('incidents')
          .set((eb) => ({
            updated_at: now,
            ...(changes.title !== undefined
              ? {
                  title: changes.title,
                  // Only a new title is a person's word; the form sends the old one back too.
                  title_auto: eb
                    .case()
                    .when('title', '=', changes.title)
                    .then(eb.ref('title_auto'))
                    .else(0)
                    .end(),
                }
              : {}),
            ...(changes.severity !== undefined ? { severity: changes.severity } : {}),
          }))
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return null;
        if (changes.monitorIds) await setMonitors(trx, id, changes.monitorIds);
        return load(trx, id);
      });
    },

    /**
     * Appends a person's update and moves the incident to the lifecycle the domain worked out;
     * `alert` (updated, or resolved when this update resolves it) is queued with it.
     */
    async addUpdate(
      id: number,
      update: NewUpdate,
      lifecycle: IncidentLifecycle,
      now: number,
      alert: IncidentAlertKind = 'incident.updated',
      publicUrl: string | null = null,
    ): Promise<Incident | null> {
      return withAlert(async (trx) => {
        const res = await trx
          .updateTable('incidents')
          .set({ state: lifecycle.state, resolved_at: lifecycle.resolvedAt, updated_at: now })
          .where('id', '=', id)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return { value: null, queued: 0 };
        await insertUpdate(trx, id, now, update, false);
        const incident = (await load(trx, id))!;
        const queued = await enqueueIncidentAlert(trx, incident, alert, update.message, now);
        const told = await noticeFollowers(trx, incident, update, publicUrl, now);
        return { value: incident, queued: queued + told };
      });
    },

    async remove(id: number): Promise<boolean> {
      const res = await db.deleteFrom('incidents').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** The ids among `ids` that name existing monitors. */
    async existingMonitors(ids: readonly number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('monitors').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}

export type IncidentsRepository = ReturnType<typeof incidentsRepository>;
