import type { PublicLocation, PublicMonth } from '../view-model.js';
import { formatPercent, locationLabel, monthName } from './labels.js';

/**
 * The last 12 months' uptime as a row of cells (two rows of six on a phone): each says its
 * month and figure in text, the colour only repeats it.
 */
export function Months({ months, name }: { months: PublicMonth[]; name: string }) {
  const first = months[0];
  const last = months.at(-1);
  return (
    <div className="mos">
      <ol className="months" aria-label={`Monthly uptime of ${name}`}>
        {months.map((m) => {
          const { short, long } = monthName(m.month);
          return (
            <li key={m.month} className={`mo mo-${m.state}`}>
              <span className="mo-n" aria-hidden="true">
                {short}
              </span>
              <span className="vh">{long}: </span>
              <span className="mo-v">
                {m.uptime === null ? 'no data' : formatPercent(m.uptime)}
              </span>
            </li>
          );
        })}
      </ol>
      {first && last ? (
        <div className="foot">
          <span>Monthly uptime</span>
          <span>
            {monthName(first.month).year} – {monthName(last.month).year}
          </span>
        </div>
      ) : null}
    </div>
  );
}

/** Each location's current status under a component; names are the team's text (escaped). */
export function Locations({ locations, name }: { locations: PublicLocation[]; name: string }) {
  return (
    <ul className="locs" aria-label={`Status of ${name} by location`}>
      {locations.map((l, i) => (
        <li key={i} className={`loc s-${l.status}`}>
          <span className="loc-n" dir="auto">
            {l.name}
          </span>
          <span className="loc-s">{locationLabel[l.status]}</span>
        </li>
      ))}
    </ul>
  );
}
