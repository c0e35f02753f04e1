import { z } from 'zod';
import { TimeZone } from './maintenance.js';

/**
 * When a push monitor's job is expected to ping: every `interval` seconds (the default), on a
 * cron expression, or on a systemd OnCalendar-style expression, read in an IANA time zone.
 *
 * Both expression kinds are checked and compiled here, without a cron library, so the form
 * and the API give the same message; the server walks the compiled five-field cron (with
 * numbers only) through its cron library. OnCalendar's weekday and date are both required to
 * match (systemd's rule); a cron expression's day-of-month and day-of-week match when either
 * does (cron's rule), so the compiled form says which.
 */

export const heartbeatScheduleLimits = { expressionMax: 200 } as const;

export interface CompiledSchedule {
  /** Five numeric cron fields: minute hour day-of-month month day-of-week (0 = Sunday). */
  cron: string;
  /** True when day-of-month and day-of-week must both match (OnCalendar). */
  domAndDow: boolean;
}

export type ScheduleCompile =
  { ok: true; schedule: CompiledSchedule } | { ok: false; message: string };

interface Field {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const MINUTE: Field = { name: 'minute', min: 0, max: 59 };
const HOUR: Field = { name: 'hour', min: 0, max: 23 };
const DOM: Field = { name: 'day of month', min: 1, max: 31 };
const MONTH: Field = { name: 'month', min: 1, max: 12, names: MONTHS };
const DOW: Field = { name: 'day of week', min: 0, max: 7, names: DAYS };

const CRON_MACROS: Record<string, string> = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

class ScheduleError extends Error {}

function valueOf(text: string, field: Field): number {
  const lower = text.toLowerCase();
  const named = field.names?.indexOf(lower.slice(0, 3)) ?? -1;
  // Names: the three-letter form, or (OnCalendar) the full English name.
  if (named >= 0 && /^[a-z]+$/.test(lower) && (field.names![named] === lower || lower.length > 3)) {
    return field === MONTH ? named + 1 : named;
  }
  if (!/^\d{1,2}$/.test(text)) {
    throw new ScheduleError(`"${text}" is not a ${field.name}`);
  }
  const n = Number(text);
  if (n < field.min || n > field.max) {
    throw new ScheduleError(`The ${field.name} ${n} is outside ${field.min}–${field.max}`);
  }
  return n;
}

/** One cron list item (`*`, `5`, `1-5`, `*\/15`, `10-50/5`, `MON-FRI`) in numbers. */
function cronItem(item: string, field: Field): string {
  const [range, step, extra] = item.split('/');
  if (extra !== undefined || range === undefined || range === '') {
    throw new ScheduleError(`"${item}" is not a ${field.name}`);
  }
  let stepText = '';
  if (step !== undefined) {
    if (!/^\d{1,2}$/.test(step) || Number(step) < 1) {
      throw new ScheduleError(`The step in "${item}" must be a whole number from 1`);
    }
    stepText = `/${Number(step)}`;
  }
  if (range === '*') return `*${stepText}`;
  const [from, to, more] = range.split('-');
  if (more !== undefined || from === undefined) throw new ScheduleError(`"${item}" is not a range`);
  const a = valueOf(from, field);
  if (to === undefined) {
    // `a/step` means from a to the end, as in most crons.
    return step === undefined ? `${a}` : `${a}-${field.max}${stepText}`;
  }
  const b = valueOf(to, field);
  if (b < a) throw new ScheduleError(`The range "${item}" runs backwards`);
  return `${a}-${b}${stepText}`;
}

function cronField(text: string, field: Field): string {
  return text
    .split(',')
    .map((item) => cronItem(item, field))
    .join(',');
}

function compileCron(expression: string): CompiledSchedule {
  const trimmed = expression.trim();
  const text = CRON_MACROS[trimmed.toLowerCase()] ?? trimmed;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) {
    throw new ScheduleError(
      'Use five fields: minute, hour, day of month, month, day of week (e.g. 30 2 * * *)',
    );
  }
  const [mi, h, dom, mon, dow] = fields as [string, string, string, string, string];
  const cron = [
    cronField(mi, MINUTE),
    cronField(h, HOUR),
    cronField(dom, DOM),
    cronField(mon, MONTH),
    // 7 is Sunday too.
    cronField(dow, DOW).replace(/(^|,)7(?=$|,)/g, '$10'),
  ].join(' ');
  return { cron, domAndDow: false };
}

const CALENDAR_SHORTHANDS: Record<string, string> = {
  minutely: '*-*-* *:*:00',
  hourly: '*-*-* *:00:00',
  daily: '*-*-* 00:00:00',
  weekly: 'Mon *-*-* 00:00:00',
  monthly: '*-*-01 00:00:00',
  quarterly: '*-01,04,07,10-01 00:00:00',
  semiannually: '*-01,07-01 00:00:00',
  yearly: '*-01-01 00:00:00',
  annually: '*-01-01 00:00:00',
};

/** One OnCalendar component list (`*`, `5`, `1..5`, `0/15`, `*\/2`, `Mon..Fri`) as a cron field. */
function calendarField(text: string, field: Field): string {
  return text
    .split(',')
    .map((item) => {
      if (item.includes('-')) throw new ScheduleError(`Write ranges with "..", e.g. 1..5`);
      return cronItem(item.replace('..', '-'), field);
    })
    .join(',');
}

function compileCalendar(expression: string): CompiledSchedule {
  const text = CALENDAR_SHORTHANDS[expression.trim().toLowerCase()] ?? expression.trim();
  const tokens = text.split(/\s+/);
  let weekdays = '*';
  if (tokens.length > 0 && /^[a-z]/i.test(tokens[0]!)) {
    weekdays = calendarField(tokens.shift()!, DOW).replace(/(^|,)7(?=$|,)/g, '$10');
  }
  let date = '*-*-*';
  let time = '00:00:00';
  for (const token of tokens) {
    if (token.includes(':')) time = token;
    else if (token.includes('-')) date = token;
    else {
      throw new ScheduleError(
        `"${token}" is neither a date (*-*-01) nor a time (02:30); time zones go in the time zone field`,
      );
    }
  }
  if (tokens.length > 2) throw new ScheduleError('Write at most a weekday, a date and a time');
  const dateParts = date.split('-');
  if (dateParts.length === 2) dateParts.unshift('*');
  if (dateParts.length !== 3) throw new ScheduleError(`"${date}" is not a date like *-*-01`);
  const [year, month, day] = dateParts as [string, string, string];
  if (year !== '*') throw new ScheduleError('Years are not supported: write * for the year');
  if (day.includes('~'))
    throw new ScheduleError('Days counted from the month end (~) are not supported');
  const timeParts = time.split(':');
  if (timeParts.length < 2 || timeParts.length > 3) {
    throw new ScheduleError(`"${time}" is not a time like 02:30 or 02:30:00`);
  }
  const [hour, minute, second = '00'] = timeParts as [string, string, string?];
  if (!/^0{1,2}$/.test(second)) {
    throw new ScheduleError('Seconds other than 00 are not supported: jobs ping per minute');
  }
  const cron = [
    calendarField(minute, MINUTE),
    calendarField(hour, HOUR),
    calendarField(day, DOM),
    calendarField(month, MONTH),
    weekdays,
  ].join(' ');
  return { cron, domAndDow: true };
}

/** Compiles a schedule expression, or says in words what is wrong with it. */
export function compileSchedule(kind: 'cron' | 'oncalendar', expression: string): ScheduleCompile {
  try {
    const schedule = kind === 'cron' ? compileCron(expression) : compileCalendar(expression);
    return { ok: true, schedule };
  } catch (err) {
    if (err instanceof ScheduleError) return { ok: false, message: err.message };
    throw err;
  }
}

const Expression = z
  .string()
  .trim()
  .min(1, 'Enter the schedule')
  .max(heartbeatScheduleLimits.expressionMax, 'Schedules are limited to 200 characters');

function compiles(kind: 'cron' | 'oncalendar') {
  return (s: { expression: string }, ctx: z.RefinementCtx) => {
    if (s.expression === '') return;
    const result = compileSchedule(kind, s.expression);
    if (!result.ok) ctx.addIssue({ code: 'custom', path: ['expression'], message: result.message });
  };
}

export const HeartbeatSchedule = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('interval') }),
    z
      .strictObject({ kind: z.literal('cron'), expression: Expression, timezone: TimeZone })
      .superRefine(compiles('cron')),
    z
      .strictObject({ kind: z.literal('oncalendar'), expression: Expression, timezone: TimeZone })
      .superRefine(compiles('oncalendar')),
  ],
  { error: 'Choose interval, cron or OnCalendar' },
);
export type HeartbeatSchedule = z.infer<typeof HeartbeatSchedule>;
