import { localToInstant, parseLocal, type FieldError } from '@pagewatch/contract';
import { Timeline, type WindowTiming } from './occurrences.js';
import { parseRule } from './rules.js';

/**
 * What the contract cannot check: that a cron or RRULE expression parses and ever starts a
 * window. Paths are those of MaintenanceInput (and of the preview body), so the form puts the
 * message under the rule field.
 */
export function timingErrors(timing: WindowTiming): FieldError[] {
  const s = timing.schedule;
  if (s.kind === 'once') return [];
  const from = parseLocal(s.from);
  if (from === null) return [];
  const parsed = parseRule(s.kind, s.expression, from);
  if (!parsed.ok) {
    return [{ path: 'schedule.expression', message: parsed.message, code: 'invalid_rule' }];
  }
  const start = localToInstant(s.from, timing.timezone) ?? 0;
  if (new Timeline(timing).upcoming(start, 1).length === 0) {
    return [
      {
        path: 'schedule.expression',
        message:
          s.until === null
            ? 'This rule never starts a window'
            : 'This rule starts no window between the start and the end date',
        code: 'rule_never_occurs',
      },
    ];
  }
  return [];
}
