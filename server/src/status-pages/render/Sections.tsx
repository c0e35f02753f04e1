import type { PublicComponent, PublicSection } from '../view-model.js';
import { Bars } from './Bars.js';
import { ResponseTimes } from './ResponseTimes.js';
import { formatPercent, statusText } from './labels.js';
import { Locations, Months } from './Months.js';

function Component({ c }: { c: PublicComponent }) {
  return (
    <li className="comp">
      <div className="row">
        <h3 className="name" dir="auto">
          {c.name}
        </h3>
        <span className={`st s-${c.status}${c.failing?.length ? ' st-long' : ''}`}>
          {statusText(c)}
        </span>
      </div>
      {c.locations ? <Locations locations={c.locations} name={c.name} /> : null}
      {c.notice ? <p className="cnote">{c.notice}</p> : null}
      {c.description ? (
        <p className="cdesc" dir="auto">
          {c.description}
        </p>
      ) : null}
      {c.days ? <Bars days={c.days} name={c.name} /> : null}
      <div className="foot">
        {/* Phones show the last 30 days only (CSS). */}
        {c.days ? (
          <span>
            <span className="long">{c.days.length} days ago</span>
            <span className="short">30 days ago</span>
          </span>
        ) : null}
        <span>
          {c.uptime === null ? 'No uptime data yet' : `${formatPercent(c.uptime)} uptime`}
          {c.latencyMs !== undefined && c.latencyMs !== null ? ` · ${c.latencyMs} ms` : ''}
        </span>
        {c.days ? <span>Today</span> : null}
      </div>
      {c.responseTimes ? <ResponseTimes data={c.responseTimes} name={c.name} /> : null}
      {c.months ? <Months months={c.months} name={c.name} /> : null}
    </li>
  );
}

export function Sections({ sections }: { sections: PublicSection[] }) {
  return (
    <>
      {sections.map((s, i) => (
        <section key={i} aria-label={s.title || 'Components'}>
          {s.title ? <h2 dir="auto">{s.title}</h2> : null}
          <ul className="list card">
            {s.components.map((c, j) => (
              <Component key={j} c={c} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
