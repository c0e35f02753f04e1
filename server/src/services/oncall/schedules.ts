import type {
  FieldError,
  OnCallNow,
  OnCallOverrideInput,
  OnCallSchedule,
  OnCallScheduleInput,
  OnCallShift,
  OnCallTimeline,
  OnCallTimelineShift,
} from '@pagewatch/contract';
import { actorUserId, type RequestContext } from '../../domain/actor.js';
import {
  icalFeed,
  nowAndNext,
  overlappingOverrides,
  shiftsBetween,
  type Shift,
} from '../../domain/oncall/index.js';
import { domainSchedule } from '../../db/repositories/oncall.js';
import { safeEqual } from '../../lib/crypto.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

const DAY_MS = 86_400_000;

/** Every person a schedule names must exist: a deleted user would leave shifts with nobody. */
async function checkPeople(deps: ServiceDeps, input: OnCallScheduleInput): Promise<void> {
  const ids = input.layers.flatMap((l) => l.members);
  const known = await deps.repos.oncall.names(ids);
  const errors: FieldError[] = [];
  input.layers.forEach((l, i) =>
    l.members.forEach((m, j) => {
      if (!known.has(m))
        errors.push({
          path: `layers.${i}.members.${j}`,
          message: `Person ${m} does not exist (deleted?)`,
          code: 'custom',
        });
    }),
  );
  if (errors.length > 0) throw validationFailed(errors, errors[0]!.message);
}

export async function getSchedule(deps: ServiceDeps, id: number): Promise<OnCallSchedule> {
  const s = await deps.repos.oncall.find(id);
  if (!s) throw notFound('Schedule');
  return s;
}

export async function createSchedule(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: OnCallScheduleInput,
): Promise<OnCallSchedule> {
  await checkPeople(deps, input);
  const id = await deps.repos.oncall.create(input, deps.clock.now());
  await audit(
    deps,
    ctx,
    'oncall_schedule.created',
    { type: 'oncall_schedule', id },
    `Created on-call schedule “${input.name}”`,
  );
  return getSchedule(deps, id);
}

export async function updateSchedule(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: OnCallScheduleInput,
): Promise<OnCallSchedule> {
  await checkPeople(deps, input);
  if (!(await deps.repos.oncall.update(id, input, deps.clock.now()))) throw notFound('Schedule');
  await audit(
    deps,
    ctx,
    'oncall_schedule.updated',
    { type: 'oncall_schedule', id },
    `Changed on-call schedule “${input.name}”`,
  );
  return getSchedule(deps, id);
}

/**
 * Refused while an escalation policy pages it (ADR 67): its steps would page the monitor's
 * channels instead, at night, without anyone having chosen that.
 */
export async function deleteSchedule(deps: ServiceDeps, ctx: RequestContext, id: number) {
  const s = await getSchedule(deps, id);
  const users = (await deps.repos.escalations.listPolicies()).filter((p) =>
    p.steps.some((step) => step.targets.some((t) => t.kind === 'schedule' && t.scheduleId === id)),
  );
  if (users.length > 0) {
    const names = users.map((p) => `“${p.name}”`).join(', ');
    throw conflict(
      `Escalation ${users.length === 1 ? 'policy' : 'policies'} ${names} ${users.length === 1 ? 'pages' : 'page'} this schedule; remove it from ${users.length === 1 ? 'that policy' : 'those policies'} first`,
    );
  }
  await deps.repos.oncall.remove(id);
  await audit(
    deps,
    ctx,
    'oncall_schedule.deleted',
    { type: 'oncall_schedule', id },
    `Deleted on-call schedule “${s.name}”`,
  );
}

/** Covers a stretch (a swap, a sick day); refused where it overlaps another override. */
export async function addOverride(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: OnCallOverrideInput,
): Promise<OnCallSchedule> {
  const s = await getSchedule(deps, id);
  if (!(await deps.repos.oncall.names([input.userId])).has(input.userId))
    throw validationFailed([
      { path: 'userId', message: `Person ${input.userId} does not exist`, code: 'custom' },
    ]);
  const all = [
    ...s.overrides.map((o) => ({
      userId: o.userId,
      from: Date.parse(o.from),
      to: Date.parse(o.to),
    })),
    { userId: input.userId, from: Date.parse(input.from), to: Date.parse(input.to) },
  ];
  const clash = overlappingOverrides(all);
  if (clash) {
    const other = s.overrides[Math.min(...clash)]!;
    throw conflict(`It overlaps ${other.userName}’s override from ${other.from} to ${other.to}`);
  }
  await deps.repos.oncall.addOverride(id, input, deps.clock.now());
  await audit(
    deps,
    ctx,
    'oncall_schedule.updated',
    { type: 'oncall_schedule', id },
    `Added an override to on-call schedule “${s.name}”`,
  );
  return getSchedule(deps, id);
}

export async function removeOverride(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  overrideId: number,
): Promise<OnCallSchedule> {
  const s = await getSchedule(deps, id);
  if (!(await deps.repos.oncall.removeOverride(id, overrideId))) throw notFound('Override');
  await audit(
    deps,
    ctx,
    'oncall_schedule.updated',
    { type: 'oncall_schedule', id },
    `Removed an override from on-call schedule “${s.name}”`,
  );
  return getSchedule(deps, id);
}

/** The feed URLs' secret: derived from the instance key, so nothing is stored per feed. */
const feedToken = (deps: ServiceDeps, what: string) => deps.secrets.digest(`ical:${what}`);
const base = (deps: ServiceDeps) => deps.publicUrl?.replace(/\/+$/, '') ?? '';
export const scheduleFeedPath = (deps: ServiceDeps, id: number) =>
  `/ical/schedules/${id}/${feedToken(deps, `schedule:${id}`)}.ics`;
export const userFeedPath = (deps: ServiceDeps, userId: number) =>
  `/ical/users/${userId}/${feedToken(deps, `user:${userId}`)}.ics`;

async function named(deps: ServiceDeps, shifts: (Shift | null)[]): Promise<Map<number, string>> {
  const ids = shifts.flatMap((s) => (s?.userId == null ? [] : [s.userId]));
  return deps.repos.oncall.names(ids);
}

function toShift(s: Shift | null, names: Map<number, string>): OnCallShift | null {
  if (!s || s.userId === null) return null;
  return {
    userId: s.userId,
    userName: names.get(s.userId) ?? `person ${s.userId}`,
    start: new Date(s.start).toISOString(),
    end: new Date(s.end).toISOString(),
    source: s.source?.kind === 'layer' ? s.source.layer : 'override',
  };
}

export async function onCallNow(deps: ServiceDeps, id: number): Promise<OnCallNow> {
  const s = await getSchedule(deps, id);
  const { now, next } = nowAndNext(domainSchedule(s), deps.clock.now());
  const names = await named(deps, [now, next]);
  return {
    now: toShift(now, names),
    next: toShift(next, names),
    feedUrl: `${base(deps)}${scheduleFeedPath(deps, id)}`,
  };
}

export const myFeed = (deps: ServiceDeps, ctx: RequestContext) => {
  const userId = actorUserId(ctx.actor);
  if (userId === null) throw notFound('Your calendar');
  return { url: `${base(deps)}${userFeedPath(deps, userId)}` };
};

/** A week back and eight weeks ahead, as calendar apps show. */
const window = (now: number) => [now - 7 * DAY_MS, now + 56 * DAY_MS] as const;

/** The .ics of a schedule, or null when the token is not its own. */
export async function scheduleFeed(deps: ServiceDeps, id: number, token: string) {
  if (!safeEqual(token, feedToken(deps, `schedule:${id}`))) return null;
  const s = await deps.repos.oncall.find(id);
  if (!s) return null;
  const now = deps.clock.now();
  const shifts = shiftsBetween(domainSchedule(s), ...window(now));
  const names = await named(deps, shifts);
  return icalFeed({
    calendarName: `On call: ${s.name}`,
    scheduleId: id,
    shifts,
    nameOf: (u) => names.get(u) ?? `person ${u}`,
    now,
  });
}

/** The .ics of one person's shifts over every schedule, or null for a wrong token. */
export async function userFeed(deps: ServiceDeps, userId: number, token: string) {
  if (!safeEqual(token, feedToken(deps, `user:${userId}`))) return null;
  const names = await deps.repos.oncall.names([userId]);
  const name = names.get(userId);
  if (!name) return null;
  const now = deps.clock.now();
  const events: Shift[] = [];
  const scheduleOf = new Map<Shift, number>();
  for (const s of await deps.repos.oncall.list()) {
    for (const shift of shiftsBetween(domainSchedule(s), ...window(now))) {
      if (shift.userId !== userId) continue;
      events.push(shift);
      scheduleOf.set(shift, s.id);
    }
  }
  events.sort((a, b) => a.start - b.start);
  return icalFeed({
    calendarName: `On call: ${name}`,
    scheduleId: 0,
    shifts: events,
    nameOf: () => name,
    now,
    uidOf: (x) => `oncall-${scheduleOf.get(x) ?? 0}-${x.userId}-${x.start}`,
  });
}

function timelineShifts(shifts: Shift[], names: Map<number, string>): OnCallTimelineShift[] {
  return shifts.map((x) => ({
    userId: x.userId,
    userName: x.userId === null ? null : (names.get(x.userId) ?? `person ${x.userId}`),
    start: new Date(x.start).toISOString(),
    end: new Date(x.end).toISOString(),
    source: x.source === null ? null : x.source.kind === 'layer' ? x.source.layer : 'override',
  }));
}

/** The next `days` days: each layer alone (no overrides), then the result everyone is paged by. */
export async function timeline(
  deps: ServiceDeps,
  id: number,
  days: number,
): Promise<OnCallTimeline> {
  const s = await getSchedule(deps, id);
  const from = deps.clock.now();
  const to = from + days * DAY_MS;
  const d = domainSchedule(s);
  const layers = d.layers.map((layer) => ({
    name: layer.name,
    shifts: shiftsBetween({ timeZone: d.timeZone, layers: [layer], overrides: [] }, from, to),
  }));
  const final = shiftsBetween(d, from, to);
  const names = await named(deps, [...final, ...layers.flatMap((l) => l.shifts)]);
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    timeZone: s.timeZone,
    layers: layers.map((l) => ({ name: l.name, shifts: timelineShifts(l.shifts, names) })),
    final: timelineShifts(final, names),
  };
}
