import type { OnCallTimeline, OnCallTimelineShift } from '@pagewatch/contract';
import { formatRangeIn } from '../../../../lib/format';

const DAY_MS = 86_400_000;
/** Eight colours, picked by person so each keeps theirs across rows and schedules. */
const tone = (userId: number) => `oncall-seg--c${userId % 8}`;

function dayStarts(t: OnCallTimeline): { at: number; label: string }[] {
  const from = Date.parse(t.from);
  const to = Date.parse(t.to);
  const fmt = new Intl.DateTimeFormat(undefined, {
    timeZone: t.timeZone,
    weekday: 'short',
    day: 'numeric',
  });
  const hour = new Intl.DateTimeFormat('en-GB', {
    timeZone: t.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const out: { at: number; label: string }[] = [];
  // Walk hourly and keep local midnights: DST days are 23 or 25 hours long.
  for (let at = Math.ceil(from / 3_600_000) * 3_600_000; at < to; at += 3_600_000) {
    if (hour.format(at) === '00:00') out.push({ at, label: fmt.format(at) });
  }
  // Today (already under way) gets its name too when there is room before tomorrow's.
  if ((out[0]?.at ?? to) - from > (to - from) / 40)
    out.unshift({ at: from, label: fmt.format(from) });
  // A label too near the right edge would be cut off: the line stays, the text goes.
  const last = to - (to - from) / 40;
  return out.map((d) => (d.at > last ? { ...d, label: '' } : d));
}

function Row({
  label,
  shifts,
  t,
  final,
}: {
  label: string;
  shifts: OnCallTimelineShift[];
  t: OnCallTimeline;
  final?: boolean;
}) {
  const from = Date.parse(t.from);
  const span = Date.parse(t.to) - from;
  const pct = (ms: number) => `${((ms / span) * 100).toFixed(3)}%`;
  return (
    <div className={`oncall-row${final ? ' oncall-row--final' : ''}`} role="row">
      <div className="oncall-row__label" role="rowheader">
        {label}
      </div>
      <div className="oncall-row__track" role="cell">
        {shifts
          .filter((s) => s.userId !== null)
          .map((s) => {
            const start = Date.parse(s.start) - from;
            const end = Date.parse(s.end) - from;
            const override = s.source === 'override';
            const text = `${s.userName ?? ''}${override ? ' (override)' : ''}: ${formatRangeIn(s.start, s.end, t.timeZone)}`;
            return (
              <span
                key={s.start}
                className={`oncall-seg ${tone(s.userId!)}${override ? ' oncall-seg--override' : ''}`}
                style={{ left: pct(start), width: pct(end - start) }}
                title={text}
                aria-label={text}
                data-testid={final ? 'oncall-final-shift' : undefined}
              >
                {s.userName}
              </span>
            );
          })}
      </div>
    </div>
  );
}

/** The next days as rows: each layer alone, then who is paged with overrides applied. */
export function Timeline({ timeline }: { timeline: OnCallTimeline }) {
  const from = Date.parse(timeline.from);
  const span = Date.parse(timeline.to) - from;
  const days = dayStarts(timeline);
  const overrides = timeline.final.filter((s) => s.source === 'override');
  return (
    <div className="oncall-timeline" aria-label="Next 14 days">
      <div className="oncall-timeline__scroll">
        <div className="oncall-timeline__grid" role="table" aria-label="Who is on call when">
          <div className="oncall-row oncall-row--days" role="row">
            <div className="oncall-row__label" role="columnheader">
              {timeline.timeZone.replaceAll('_', ' ')}
            </div>
            <div className="oncall-row__track" role="cell">
              {days.map((d) => (
                <span
                  key={d.at}
                  className="oncall-day"
                  style={{ left: `${(((d.at - from) / span) * 100).toFixed(3)}%` }}
                >
                  {d.label}
                </span>
              ))}
            </div>
          </div>
          {timeline.layers.map((l, i) => (
            <Row key={`${i}-${l.name}`} label={l.name} shifts={l.shifts} t={timeline} />
          ))}
          <Row label="On call" shifts={timeline.final} t={timeline} final />
        </div>
      </div>
      <p className="muted oncall-timeline__legend">
        The bottom row is who gets paged: later layers win where they are active
        {overrides.length > 0 ? '; striped stretches are overrides' : ''}. Shifts are{' '}
        {Math.round(span / DAY_MS)} days from now, in {timeline.timeZone.replaceAll('_', ' ')}.
      </p>
    </div>
  );
}
