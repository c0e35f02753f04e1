import { Cron } from 'croner';
import rrulePkg, { type Options as RRuleOptions } from 'rrule';

// rrule ships CommonJS; its named exports are not visible to Node's ESM loader.
const { RRule } = rrulePkg;

/**
 * Recurrence rules expanded in "floating" time: every instant handled here is a wall-clock
 * reading written as if it were UTC (2026-03-29T02:30 local → Date.UTC(2026, 2, 29, 2, 30)).
 * Floating time has no DST, so each local time happens exactly once a day; the caller turns
 * each reading into a real instant in the window's zone (contract/zoned-time.ts), where the gap
 * and overlap rules live. This sidesteps rrule's TZID handling, which returns dates whose UTC
 * fields are the local time anyway, and keeps cron and RRULE on one rule for DST.
 */
export type RuleKind = 'cron' | 'rrule';

export interface FloatingRule {
  /** Floating starts ≥ `after`, ascending, until the iterator is left. */
  startsFrom(after: number): Iterable<number>;
}

export type RuleParse = { ok: true; rule: FloatingRule } | { ok: false; message: string };

const DAY = 86_400_000;
/** A rule with nothing in 20 years is treated as finished. */
const RRULE_HORIZON = 20 * 365 * DAY;
const RRULE_BATCH = 64;

function parseCron(expression: string, from: number): RuleParse {
  const fields = expression.trim().split(/\s+/);
  if (!expression.trim().startsWith('@') && fields.length !== 5) {
    return {
      ok: false,
      message: 'Use five fields: minute, hour, day of month, month, day of week (e.g. 0 3 * * *)',
    };
  }
  let cron: Cron;
  try {
    cron = new Cron(expression.trim(), { paused: true, timezone: 'Etc/UTC' });
  } catch (err) {
    return { ok: false, message: `This cron expression does not parse: ${messageOf(err)}` };
  }
  return {
    ok: true,
    rule: {
      *startsFrom(after) {
        // nextRun is strictly after its argument.
        let prev = new Date(Math.max(after, from) - 1);
        for (;;) {
          const next = cron.nextRun(prev);
          if (!next) return;
          yield next.getTime();
          prev = next;
        }
      },
    },
  };
}

function parseRrule(expression: string, from: number): RuleParse {
  const text = expression.trim().replace(/^RRULE:/i, '');
  if (/DTSTART|TZID|[\r\n]/i.test(text)) {
    return {
      ok: false,
      message:
        'Leave DTSTART and TZID out: the rule starts at "Starting from" in the chosen time zone',
    };
  }
  const shapeError = rruleShapeError(text);
  if (shapeError) return { ok: false, message: shapeError };
  let options: Partial<RRuleOptions>;
  try {
    options = RRule.parseString(text);
  } catch (err) {
    return { ok: false, message: `This RRULE does not parse: ${messageOf(err)}` };
  }
  if (options.freq === undefined || options.freq === null) {
    return { ok: false, message: 'Say how often it repeats with FREQ, e.g. FREQ=WEEKLY;BYDAY=SU' };
  }
  // rrule walks every step from DTSTART on each call: minutely rules grow too costly with age.
  if (options.freq === RRule.SECONDLY || options.freq === RRule.MINUTELY) {
    return {
      ok: false,
      message: 'Windows repeat at most every hour with an RRULE (use cron for more)',
    };
  }
  let rule: InstanceType<typeof RRule>;
  try {
    rule = new RRule({ ...options, dtstart: new Date(from) });
    // Some mistakes (BYMONTHDAY=40) only surface when the rule is expanded.
    rule.between(new Date(from), new Date(from + RRULE_HORIZON), true, (_d, i) => i < 1);
  } catch (err) {
    return { ok: false, message: `This RRULE does not parse: ${messageOf(err)}` };
  }
  return {
    ok: true,
    rule: {
      *startsFrom(after) {
        let lo = Math.max(after, from);
        const stop = lo + RRULE_HORIZON;
        for (;;) {
          // rrule walks from DTSTART on every call, so ask for a batch at a time.
          const batch = rule.between(
            new Date(lo),
            new Date(stop),
            true,
            (_d, i) => i < RRULE_BATCH,
          );
          for (const d of batch) yield d.getTime();
          if (batch.length < RRULE_BATCH) return;
          lo = batch[batch.length - 1]!.getTime() + 1;
        }
      },
    },
  };
}

const NUMBERS = /^[+-]?\d{1,3}(,[+-]?\d{1,3})*$/;
const WEEKDAY = /^[+-]?\d{0,2}(MO|TU|WE|TH|FR|SA|SU)$/;
const PARTS: Record<string, (v: string) => boolean> = {
  FREQ: (v) => /^(YEARLY|MONTHLY|WEEKLY|DAILY|HOURLY|MINUTELY|SECONDLY)$/.test(v),
  INTERVAL: (v) => /^\d{1,4}$/.test(v) && Number(v) > 0,
  COUNT: (v) => /^\d{1,5}$/.test(v) && Number(v) > 0,
  UNTIL: (v) => /^\d{8}(T\d{6}Z?)?$/.test(v),
  WKST: (v) => WEEKDAY.test(v),
  BYDAY: (v) => v.split(',').every((d) => WEEKDAY.test(d)),
  BYSECOND: (v) => NUMBERS.test(v),
  BYMINUTE: (v) => NUMBERS.test(v),
  BYHOUR: (v) => NUMBERS.test(v),
  BYMONTHDAY: (v) => NUMBERS.test(v),
  BYYEARDAY: (v) => NUMBERS.test(v),
  BYWEEKNO: (v) => NUMBERS.test(v),
  BYMONTH: (v) => NUMBERS.test(v),
  BYSETPOS: (v) => NUMBERS.test(v),
};

/** rrule quietly drops what it does not understand (BYDAY=XX): check the parts first. */
function rruleShapeError(text: string): string | null {
  for (const part of text.split(';')) {
    const [key = '', value = '', ...rest] = part.split('=');
    const check = PARTS[key.toUpperCase()];
    if (!check) return `This RRULE does not parse: unknown part "${key}"`;
    if (rest.length > 0 || !check(value.toUpperCase())) {
      return `This RRULE does not parse: "${part}" is not a valid ${key.toUpperCase()}`;
    }
  }
  return null;
}

/** Parses a rule anchored at the floating `from`; a message a person can act on when it fails. */
export function parseRule(kind: RuleKind, expression: string, from: number): RuleParse {
  return kind === 'cron' ? parseCron(expression, from) : parseRrule(expression, from);
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^CronPattern:\s*/, '');
}
