import type { PublicIncident, PublicStatusPage } from '../view-model.js';
import { IncidentList, Incident, Maintenance } from './Incidents.js';
import { overallLabel } from './labels.js';
import { At } from './Times.js';
import { Sections } from './Sections.js';

export function Banner({ view }: { view: PublicStatusPage }) {
  return (
    <div className={`banner b-${view.status}`} role="status">
      <span>{overallLabel[view.status]}</span>
      <small>
        Updated <At iso={view.generatedAt} />
      </small>
    </div>
  );
}

export function StatusPageBody({ view, base }: { view: PublicStatusPage; base: string }) {
  return (
    <>
      <Banner view={view} />
      {view.descriptionHtml ? (
        <div
          className="desc"
          dir="auto"
          dangerouslySetInnerHTML={{ __html: view.descriptionHtml }}
        />
      ) : null}
      <IncidentList title="Active incidents" incidents={view.activeIncidents} base={base} />
      <Maintenance items={view.maintenance} />
      <Sections sections={view.sections} />
      <IncidentList
        title="Past incidents"
        incidents={view.pastIncidents}
        base={base}
        empty="No incidents in the last 14 days."
        brief
      />
    </>
  );
}

export function HistoryBody({ view, base }: { view: PublicStatusPage; base: string }) {
  return (
    <>
      <p>
        <a href={base || '/'}>← Current status</a>
      </p>
      <h2>Uptime, last 90 days</h2>
      <Sections sections={view.sections} />
      <IncidentList
        title="Incidents, last 90 days"
        incidents={[...view.activeIncidents, ...view.pastIncidents]}
        base={base}
        empty="No incidents in the last 90 days."
        brief
      />
    </>
  );
}

export function IncidentBody({ incident, base }: { incident: PublicIncident; base: string }) {
  return (
    <>
      <p>
        <a href={base || '/'}>← Current status</a>
      </p>
      <ul className="list card">
        <Incident incident={incident} href={null} level={2} />
      </ul>
    </>
  );
}
