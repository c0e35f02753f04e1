import {
  RotationLayerInput,
  type OnCallOverride,
  type OnCallOverrideInput,
  type OnCallSchedule,
  type OnCallScheduleInput,
} from '@pagewatch/contract';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { OnCallSchedule as DomainSchedule } from '../../domain/oncall/index.js';
import type { DB, OncallSchedulesTable } from '../schema.js';

const iso = (ms: number) => new Date(ms).toISOString();
const StoredLayers = z.array(RotationLayerInput);

function layersOf(json: string) {
  const parsed = StoredLayers.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : [];
}

/** On-call schedules and overrides (ADR 39); the maths is in domain/oncall. */
export function oncallRepository(db: Kysely<DB>) {
  async function overridesOf(ids: number[]): Promise<Map<number, OnCallOverride[]>> {
    const out = new Map<number, OnCallOverride[]>();
    if (ids.length === 0) return out;
    const rows = await db
      .selectFrom('oncall_overrides as o')
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .select(['o.id', 'o.schedule_id', 'o.user_id', 'o.from_at', 'o.to_at', 'u.name', 'u.email'])
      .where('o.schedule_id', 'in', ids)
      .orderBy('o.from_at')
      .execute();
    for (const r of rows) {
      const list = out.get(Number(r.schedule_id)) ?? [];
      list.push({
        id: Number(r.id),
        userId: Number(r.user_id),
        userName: r.name || r.email,
        from: iso(Number(r.from_at)),
        to: iso(Number(r.to_at)),
      });
      out.set(Number(r.schedule_id), list);
    }
    return out;
  }

  const toSchedule = (
    r: Selectable<OncallSchedulesTable>,
    overrides: OnCallOverride[],
  ): OnCallSchedule => ({
    id: Number(r.id),
    name: r.name,
    timeZone: r.time_zone,
    layers: layersOf(r.layers),
    overrides,
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  });

  return {
    async list(): Promise<OnCallSchedule[]> {
      const rows = await db.selectFrom('oncall_schedules').selectAll().orderBy('name').execute();
      const overrides = await overridesOf(rows.map((r) => Number(r.id)));
      return rows.map((r) => toSchedule(r, overrides.get(Number(r.id)) ?? []));
    },

    async find(id: number): Promise<OnCallSchedule | null> {
      const r = await db
        .selectFrom('oncall_schedules')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!r) return null;
      return toSchedule(r, (await overridesOf([id])).get(id) ?? []);
    },

    async create(input: OnCallScheduleInput, now: number): Promise<number> {
      const r = await db
        .insertInto('oncall_schedules')
        .values({
          name: input.name,
          time_zone: input.timeZone,
          layers: JSON.stringify(input.layers),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    },

    async update(id: number, input: OnCallScheduleInput, now: number): Promise<boolean> {
      const r = await db
        .updateTable('oncall_schedules')
        .set({
          name: input.name,
          time_zone: input.timeZone,
          layers: JSON.stringify(input.layers),
          updated_at: now,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('oncall_schedules').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    async addOverride(scheduleId: number, o: OnCallOverrideInput, now: number): Promise<number> {
      const r = await db
        .insertInto('oncall_overrides')
        .values({
          schedule_id: scheduleId,
          user_id: o.userId,
          from_at: Date.parse(o.from),
          to_at: Date.parse(o.to),
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(r.id);
    },

    async removeOverride(scheduleId: number, overrideId: number): Promise<boolean> {
      const r = await db
        .deleteFrom('oncall_overrides')
        .where('id', '=', overrideId)
        .where('schedule_id', '=', scheduleId)
        .executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },

    /** Display names of these people (name, or email when unnamed); missing ones left out. */
    async names(ids: readonly number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('users')
        .select(['id', 'name', 'email'])
        .where('id', 'in', [...ids])
        .execute();
      return new Map(rows.map((r) => [Number(r.id), r.name || r.email]));
    },
  };
}

/** The domain's view of a stored schedule. */
export function domainSchedule(s: OnCallSchedule): DomainSchedule {
  return {
    timeZone: s.timeZone,
    layers: s.layers,
    overrides: s.overrides.map((o) => ({
      userId: o.userId,
      from: Date.parse(o.from),
      to: Date.parse(o.to),
    })),
  };
}

export type OncallRepository = ReturnType<typeof oncallRepository>;
