import type { ImportItem, ImportReport } from '@pagewatch/contract';
import { formatCount } from '../../../../lib/format';

export const sourceNames: Record<ImportReport['source'], string> = {
  'uptime-kuma': 'Uptime Kuma',
  gatus: 'Gatus',
};

function outcomeLabel(outcome: ImportItem['outcome'], dryRun: boolean): string {
  if (outcome === 'created') return dryRun ? 'To create' : 'Created';
  if (outcome === 'existing') return 'Already imported';
  return outcome === 'merged' ? 'Merged' : 'Skipped';
}

/** The figures above the table: what the import does, at a glance. */
function Summary({ report }: { report: ImportReport }) {
  const { counts, history } = report;
  const figures = [
    { label: report.dryRun ? 'To create' : 'Created', value: counts.created ?? 0 },
    { label: 'Already imported', value: counts.existing ?? 0 },
    { label: 'Merged', value: counts.merged ?? 0 },
    { label: 'Skipped', value: counts.skipped ?? 0, warn: (counts.skipped ?? 0) > 0 },
  ];
  return (
    <section className="stats imp-stats" aria-label="Summary">
      {figures.map((f) => (
        <div className="stat" key={f.label}>
          <p className="stat__label">{f.label}</p>
          <p className={`stat__value ${f.warn ? 'stat__value--warn' : ''}`}>
            {formatCount(f.value)}
          </p>
        </div>
      ))}
      {report.source === 'uptime-kuma' && (
        <div className="stat">
          <p className="stat__label">History</p>
          <p className="stat__value">{formatCount(history.days)}</p>
          <p className="stat__sub">
            daily figures of {formatCount(history.monitors)} monitors, {formatCount(history.hours)}{' '}
            hourly
          </p>
        </div>
      )}
    </section>
  );
}

/** Every thing found in the file, what becomes of it and why. */
export function ImportReportView({ report }: { report: ImportReport }) {
  return (
    <>
      <p className="imp-origin">
        Read from <strong>{report.origin}</strong>
      </p>
      <Summary report={report} />
      <div className="dtable-wrap imp-table-wrap">
        <table className="dtable imp-table">
          <caption className="visually-hidden">
            {report.dryRun ? 'What the import would do' : 'What the import did'}
          </caption>
          <thead>
            <tr>
              <th scope="col">In {sourceNames[report.source]}</th>
              <th scope="col">Outcome</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {report.items.map((item) => (
              <tr key={`${item.kind}:${item.source}`} data-outcome={item.outcome}>
                <td className="imp-table__what">
                  <span className="imp-table__name">{item.name}</span>
                  <span className="imp-table__source">{item.source}</span>
                </td>
                <td>
                  <span className={`pill imp-pill imp-pill--${item.outcome}`}>
                    {outcomeLabel(item.outcome, report.dryRun)}
                  </span>
                </td>
                <td className="imp-table__details">
                  {item.reason && <p className="imp-table__reason">{item.reason}</p>}
                  {item.notes.length > 0 && (
                    <ul className="imp-table__notes">
                      {item.notes.map((n) => (
                        <li key={n}>{n}</li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
