import type { PublicDay } from '../view-model.js';
import { dayLabel } from './labels.js';

/** 90 day bars; each is focusable and shows its tooltip (its aria-label) on hover, focus or tap. */
export function Bars({ days, name }: { days: PublicDay[]; name: string }) {
  return (
    <ol className="bars" aria-label={`Daily uptime of ${name}, last ${days.length} days`}>
      {days.map((d) => (
        <li key={d.date} className={d.state} tabIndex={0} aria-label={dayLabel(d)} />
      ))}
    </ol>
  );
}
