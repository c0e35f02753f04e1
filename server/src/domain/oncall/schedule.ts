import { instantOfWallClock, wallClockAt } from '@pagewatch/contract';

/**
 * On-call schedules (issue 18 item 4, ADR 39), pure: who is on call at an instant, the shifts
 * between two instants, now and next. Every handoff is a wall-clock time in the schedule's zone
 * ("Mondays 09:00 Europe/Berlin"), turned into an instant per shift, so a week that crosses a
 * DST change is 167 or 169 hours long and the handoff stays at 09:00.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Layers later in the list win where they are active; a restriction limits when one is. */
export interface RotationLayer {
  name: string;
  /** Person ids in rotation order; each holds one shift, then the next takes over. */
  members: readonly number[];
  /** The first shift's local start date, `YYYY-MM-DD`. */
  startDate: string;
  /** Local handoff time, `HH:MM`. */
  handoff: string;
  /** Shift length in days (7: weekly). */
  lengthDays: number;
  /** Only on these weekdays (0 Sunday … 6 Saturday, of the window's start) between these times. */
  restriction?: { days: readonly number[]; from: string; to: string } | null;
}

/** Someone covering a stretch of time (a shift, or a swap), whatever the layers say. */
export interface Override {
  userId: number;
  from: number;
  to: number;
}

export interface OnCallSchedule {
  timeZone: string;
  layers: readonly RotationLayer[];
  overrides: readonly Override[];
}

export interface OnCall {
  userId: number;
  /** The override, or the layer's name. */
  source: { kind: 'override' } | { kind: 'layer'; layer: string };
}

/** A stretch with one person on call (or nobody: userId null). */
export interface Shift {
  userId: number | null;
  start: number;
  end: number;
  source: OnCall['source'] | null;
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

function dateParts(date: string): [number, number, number] {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [y, m, d];
}

/** The instant of the k-th handoff of a layer (k = 0: the rotation's start). */
export function handoffAt(layer: RotationLayer, k: number, zone: string): number {
  const [y, m, d] = dateParts(layer.startDate);
  const floating =
    Date.UTC(y, m - 1, d + k * layer.lengthDays) + minutesOf(layer.handoff) * MINUTE_MS;
  return instantOfWallClock(floating, zone);
}

/** The shift number at `t`: handoffAt(k) ≤ t < handoffAt(k + 1); negative before the start. */
export function shiftIndexAt(layer: RotationLayer, t: number, zone: string): number {
  const first = handoffAt(layer, 0, zone);
  let k = Math.floor((t - first) / (layer.lengthDays * DAY_MS));
  // The estimate is off by at most one around DST changes.
  while (handoffAt(layer, k, zone) > t) k -= 1;
  while (handoffAt(layer, k + 1, zone) <= t) k += 1;
  return k;
}

function restrictionHolds(layer: RotationLayer, t: number, zone: string): boolean {
  const r = layer.restriction;
  if (!r) return true;
  const w = wallClockAt(t, zone);
  const weekday = new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay();
  const minute = w.hour * 60 + w.minute;
  const from = minutesOf(r.from);
  const to = minutesOf(r.to);
  if (from < to) return r.days.includes(weekday) && minute >= from && minute < to;
  // A window over midnight belongs to the day it starts on.
  if (minute >= from) return r.days.includes(weekday);
  return minute < to && r.days.includes((weekday + 6) % 7);
}

/** Who is on call at `t`: an override, else the last layer active then; null if nobody. */
export function onCallAt(s: OnCallSchedule, t: number): OnCall | null {
  const o = s.overrides.find((x) => x.from <= t && t < x.to);
  if (o) return { userId: o.userId, source: { kind: 'override' } };
  for (let i = s.layers.length - 1; i >= 0; i -= 1) {
    const layer = s.layers[i]!;
    if (layer.members.length === 0 || !restrictionHolds(layer, t, s.timeZone)) continue;
    const k = shiftIndexAt(layer, t, s.timeZone);
    if (k < 0) continue;
    const n = layer.members.length;
    return {
      userId: layer.members[((k % n) + n) % n]!,
      source: { kind: 'layer', layer: layer.name },
    };
  }
  return null;
}

/** Every instant in [from, to) where the answer of onCallAt may change. */
function boundaries(s: OnCallSchedule, from: number, to: number): number[] {
  const zone = s.timeZone;
  const out = new Set<number>([from]);
  for (const o of s.overrides) {
    if (o.from > from && o.from < to) out.add(o.from);
    if (o.to > from && o.to < to) out.add(o.to);
  }
  for (const layer of s.layers) {
    let k = Math.max(0, shiftIndexAt(layer, from, zone));
    for (let t = handoffAt(layer, k, zone); t < to; t = handoffAt(layer, ++k, zone)) {
      if (t > from) out.add(t);
    }
    const r = layer.restriction;
    if (!r) continue;
    // Window edges on each local day in range (and the day before, for windows over midnight).
    const w = wallClockAt(from, zone);
    for (let day = Date.UTC(w.year, w.month - 1, w.day) - DAY_MS; ; day += DAY_MS) {
      const edges = [r.from, r.to].map((hm) =>
        instantOfWallClock(day + minutesOf(hm) * MINUTE_MS, zone),
      );
      for (const e of edges) if (e > from && e < to) out.add(e);
      if (edges[0]! >= to) break;
    }
  }
  return [...out].sort((a, b) => a - b);
}

const sameSource = (a: OnCall | null, b: OnCall | null) =>
  a?.userId === b?.userId && JSON.stringify(a?.source) === JSON.stringify(b?.source);

/** The shifts covering [from, to), merged where the same person continues from the same source. */
export function shiftsBetween(s: OnCallSchedule, from: number, to: number): Shift[] {
  const cuts = boundaries(s, from, to);
  const out: Shift[] = [];
  for (const [i, start] of cuts.entries()) {
    const end = cuts[i + 1] ?? to;
    const who = onCallAt(s, start);
    const last = out.at(-1);
    if (
      last &&
      sameSource(last.userId === null ? null : { userId: last.userId, source: last.source! }, who)
    ) {
      last.end = end;
      continue;
    }
    out.push({ userId: who?.userId ?? null, start, end, source: who?.source ?? null });
  }
  return out;
}

/** Who is on call now and who takes over next (within `horizonMs`), for the UI and the API. */
export function nowAndNext(
  s: OnCallSchedule,
  now: number,
  horizonMs = 60 * DAY_MS,
): { now: Shift | null; next: Shift | null } {
  const shifts = shiftsBetween(s, now, now + horizonMs);
  const current = shifts[0] ?? null;
  const next = shifts.slice(1).find((x) => x.userId !== current?.userId) ?? null;
  return { now: current?.userId === null ? null : current, next };
}

/** Overrides that overlap another (refused: who is on call would depend on their order). */
export function overlappingOverrides(overrides: readonly Override[]): [number, number] | null {
  const order = overrides.map((o, i) => ({ ...o, i })).sort((a, b) => a.from - b.from);
  for (let j = 1; j < order.length; j += 1) {
    if (order[j]!.from < order[j - 1]!.to) return [order[j - 1]!.i, order[j]!.i];
  }
  return null;
}
