import {
  instantToLocal,
  localToInstant,
  MaintenanceInput,
  type FieldError,
  type MaintenanceDraft,
  type MaintenancePreviewInput,
  type MaintenanceWindow,
} from '@pagewatch/contract';
import { MaintenancePreviewInput as PreviewSchema } from '@pagewatch/contract';
import type { Errors, Schema } from '../../lib/use-schema-form';
import { presetOf, presetRule } from './presets';

export type Repeat = 'once' | 'daily' | 'weekly' | 'advanced';

/** The form as text fields; `monitorIds` and `weekdays` are comma-separated lists. */
export type WindowValues = {
  title: string;
  description: string;
  timezone: string;
  scope: 'all' | 'monitors';
  monitorIds: string;
  repeat: Repeat;
  startsAt: string;
  endsAt: string;
  time: string;
  weekdays: string;
  rule: 'cron' | 'rrule';
  expression: string;
  duration: string;
  from: string;
  until: string;
};

export const browserTimeZone = (): string =>
  Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const HOUR = 3_600_000;

export function emptyValues(now = Date.now(), timezone = browserTimeZone()): WindowValues {
  const nextHour = Math.ceil(now / HOUR) * HOUR;
  return {
    title: '',
    description: '',
    timezone,
    scope: 'all',
    monitorIds: '',
    repeat: 'once',
    startsAt: instantToLocal(nextHour, timezone),
    endsAt: instantToLocal(nextHour + HOUR, timezone),
    time: '02:00',
    weekdays: 'SU',
    rule: 'cron',
    expression: '',
    duration: '60',
    from: `${instantToLocal(now, timezone).slice(0, 10)}T00:00`,
    until: '',
  };
}

export function valuesFromWindow(w: MaintenanceWindow): WindowValues {
  const base = emptyValues(Date.now(), w.timezone);
  const common = {
    ...base,
    title: w.title,
    description: w.description,
    scope: w.scope.kind,
    monitorIds: w.scope.kind === 'monitors' ? w.scope.monitorIds.join(',') : '',
  };
  const s = w.schedule;
  if (s.kind === 'once') {
    return {
      ...common,
      repeat: 'once',
      startsAt: instantToLocal(Date.parse(s.startsAt), w.timezone),
      endsAt: instantToLocal(Date.parse(s.endsAt), w.timezone),
    };
  }
  const recurring = {
    ...common,
    duration: String(s.durationMinutes),
    from: s.from,
    until: s.until ?? '',
  };
  const preset = s.kind === 'rrule' ? presetOf(s.expression) : null;
  if (preset) {
    return {
      ...recurring,
      repeat: preset.repeat,
      time: preset.time,
      weekdays: preset.repeat === 'weekly' ? preset.days.join(',') : base.weekdays,
    };
  }
  return { ...recurring, repeat: 'advanced', rule: s.kind, expression: s.expression };
}

const list = (v: string) => v.split(',').filter(Boolean);

/** An empty or unreadable local time goes through as typed, so the schema names the field. */
const instant = (local: string, zone: string): string => {
  const t = localToInstant(local, zone);
  return t === null ? local : new Date(t).toISOString();
};

function scheduleOf(v: WindowValues): MaintenanceDraft['schedule'] {
  if (v.repeat === 'once') {
    return {
      kind: 'once',
      startsAt: instant(v.startsAt, v.timezone),
      endsAt: instant(v.endsAt, v.timezone),
    };
  }
  const recurring = {
    durationMinutes: v.duration.trim() === '' ? Number.NaN : Number(v.duration),
    from: v.from,
    until: v.until === '' ? null : v.until,
  };
  if (v.repeat === 'advanced') return { kind: v.rule, expression: v.expression, ...recurring };
  const expression = presetRule(
    v.repeat === 'daily'
      ? { repeat: 'daily', time: v.time }
      : { repeat: 'weekly', time: v.time, days: list(v.weekdays) },
  );
  return { kind: 'rrule', expression, ...recurring };
}

export function toDraft(v: WindowValues): MaintenanceDraft {
  return {
    title: v.title,
    description: v.description,
    timezone: v.timezone,
    scope:
      v.scope === 'all'
        ? { kind: 'all' }
        : { kind: 'monitors', monitorIds: list(v.monitorIds).map(Number) },
    schedule: scheduleOf(v),
  };
}

/** What the live preview asks about; null while the schedule itself is not valid yet. */
export function previewInput(v: WindowValues): MaintenancePreviewInput | null {
  const draft = toDraft(v);
  const parsed = PreviewSchema.safeParse({ timezone: draft.timezone, schedule: draft.schedule });
  return parsed.success ? parsed.data : null;
}

/** Which form field an API or schema path belongs to. */
export function fieldOf(path: string, repeat: Repeat): keyof WindowValues {
  const [head = '', sub = ''] = path.split('.');
  if (head === 'scope') return 'monitorIds';
  if (head !== 'schedule') return (head || 'title') as keyof WindowValues;
  switch (sub) {
    case 'startsAt':
    case 'endsAt':
    case 'from':
    case 'until':
      return sub;
    case 'durationMinutes':
      return 'duration';
    case 'expression':
      return repeat === 'advanced' ? 'expression' : 'time';
    default:
      return 'repeat';
  }
}

/** Field errors of the API with paths renamed to the form's fields. */
export const toFormErrors = (errors: readonly FieldError[], repeat: Repeat): FieldError[] =>
  errors.map((e) => ({ ...e, path: fieldOf(e.path, repeat) }));

/** MaintenanceInput, with its issues moved onto the form's fields. */
export const windowSchema: Schema<MaintenanceInput> = {
  safeParse(input) {
    const { draft, repeat } = input as { draft: MaintenanceDraft; repeat: Repeat };
    const parsed = MaintenanceInput.safeParse(draft);
    if (parsed.success) return { success: true, data: parsed.data };
    const issues = parsed.error.issues.map((i) => ({
      path: [fieldOf(i.path.map(String).join('.'), repeat)],
      message: i.message,
    }));
    return { success: false, error: { issues } };
  },
};

export const toSchemaInput = (v: WindowValues) => ({ draft: toDraft(v), repeat: v.repeat });

/** Rules of the form's own fields, beyond the contract. */
export function checkValues(v: WindowValues): Errors<WindowValues> {
  const errors: Errors<WindowValues> = {};
  if (v.repeat === 'weekly' && list(v.weekdays).length === 0) {
    errors.weekdays = 'Choose at least one day';
  }
  if ((v.repeat === 'daily' || v.repeat === 'weekly') && !/^\d{2}:\d{2}$/.test(v.time)) {
    errors.time = 'Enter a time like 02:30';
  }
  return errors;
}
