import type { PublicIncident, PublicMaintenance } from '../view-model.js';
import { stateLabel } from './labels.js';
import { At, Range, Relative, Until } from './Times.js';

export function Incident({
  incident,
  href,
  level = 3,
}: {
  incident: PublicIncident;
  href: string | null;
  level?: 2 | 3;
}) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <li className={`inc${incident.resolvedAt ? '' : ' open'}`}>
      <H dir="auto">{href ? <a href={href}>{incident.title}</a> : incident.title}</H>
      <p className="muted">
        {incident.resolvedAt ? 'Resolved' : stateLabel[incident.state]} · started{' '}
        <At iso={incident.startedAt} />
        {incident.resolvedAt ? null : <Relative iso={incident.startedAt} />}
        {incident.components.length > 0 ? (
          <>
            {' · affects '}
            <span dir="auto">{incident.components.join(', ')}</span>
          </>
        ) : null}
      </p>
      <ul className="upd">
        {incident.updates.map((u, i) => (
          <li key={i}>
            <span className="state">{stateLabel[u.state]}</span>{' '}
            <span className="muted">
              <At iso={u.at} />
            </span>
            <p className="msg" dir="auto">
              {u.message}
            </p>
          </li>
        ))}
      </ul>
    </li>
  );
}

export function IncidentList({
  title,
  incidents,
  base,
  empty,
  brief = false,
}: {
  title: string;
  incidents: PublicIncident[];
  base: string;
  empty?: string;
  brief?: boolean;
}) {
  if (incidents.length === 0 && !empty) return null;
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {incidents.length === 0 ? (
        <p className="card none">{empty}</p>
      ) : (
        <ul className="list card">
          {incidents.map((i) => (
            <Incident
              key={i.id}
              incident={brief ? { ...i, updates: i.updates.slice(0, 1) } : i}
              href={`${base}/incidents/${i.id}`}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

export function Maintenance({ items }: { items: PublicMaintenance[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-label="Maintenance">
      <h2>Maintenance</h2>
      <ul className="list card">
        {items.map((m, i) => (
          <li key={i} className="inc">
            <h3 dir="auto">{m.title}</h3>
            <p className="muted">
              {m.active ? (
                <>
                  {'In progress '}
                  <Until iso={m.end} />
                  <Relative iso={m.end} prefix="ends " />
                </>
              ) : (
                <>
                  {'Scheduled '}
                  <Range start={m.start} end={m.end} />
                  <Relative iso={m.start} prefix="starts " />
                </>
              )}
              {' · affects '}
              <span dir="auto">{m.components.join(', ')}</span>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
