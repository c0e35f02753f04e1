import { importLimits, type ImportReport } from '@pagewatch/contract';
import { useId, useRef, useState } from 'react';
import { Button, ButtonLink } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { formatCount } from '../../../../lib/format';
import { useKumaImport } from '../../api/import';
import { ImportReportView } from './ImportReportView';

/**
 * Settings → Import: choose Kuma's file, read the preview (the server runs the whole import
 * and rolls it back), then import it for real. Nothing is written before the confirmation.
 */
export function ImportScreen() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const run = useKumaImport();

  const choose = (picked: File | undefined) => {
    setReport(null);
    run.reset();
    if (!picked) return;
    setTooLarge(picked.size > importLimits.bytesMax);
    setFile(picked);
  };
  const send = (dryRun: boolean) => {
    if (!file) return;
    run.mutate({ file, dryRun }, { onSuccess: (r) => setReport(r) });
  };
  const creates = report?.counts.created ?? 0;

  return (
    <>
      <div className="panel imp-panel">
        <h3 className="panel__title">Uptime Kuma</h3>
        <p className="page-sub">
          Monitors, notification channels with their secrets, status pages, maintenance windows and
          90 days of history, from Kuma 2.x’s <code>kuma.db</code> (stop Kuma first) or a Kuma 1.x
          JSON backup. Importing again creates nothing twice.
        </p>
        <div className="imp-pick">
          <input
            ref={input}
            id={id}
            type="file"
            className="visually-hidden"
            accept=".db,.sqlite,.sqlite3,.json,application/json,application/vnd.sqlite3"
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <Button icon="download" onClick={() => input.current?.click()}>
            {file ? 'Choose another file' : 'Choose a file'}
          </Button>
          <span className="imp-pick__name" aria-live="polite">
            {file ? `${file.name} · ${formatCount(file.size)} bytes` : 'No file chosen'}
          </span>
          <Button
            variant="primary"
            disabled={!file || tooLarge}
            busy={run.isPending && run.variables?.dryRun === true}
            onClick={() => send(true)}
          >
            Preview
          </Button>
        </div>
        <p id={`${id}-hint`} className="field__hint">
          At most 20 MiB. The preview writes nothing.
        </p>
        {tooLarge && (
          <Notice tone="danger" title="This file is larger than 20 MiB" live>
            Import files are limited to 20 MiB.
          </Notice>
        )}
      </div>
      {run.error && <ErrorNotice error={run.error} />}
      {report && !report.dryRun && (
        <Notice
          tone="info"
          title={`Imported: ${formatCount(creates)} created, ${formatCount(report.counts.skipped ?? 0)} skipped`}
          action={
            <ButtonLink to="/" size="sm" variant="primary">
              See the monitors
            </ButtonLink>
          }
          live
        >
          New monitors start checking now; the imported history shows on their pages and status
          pages.
        </Notice>
      )}
      {report && (
        <section className="imp-report" aria-label={report.dryRun ? 'Preview' : 'Result'}>
          <ImportReportView report={report} />
          {report.dryRun && (
            <div className="imp-actions">
              <Button
                variant="primary"
                disabled={creates === 0}
                busy={run.isPending && run.variables?.dryRun === false}
                onClick={() => send(false)}
              >
                {creates === 0 ? 'Nothing new to import' : `Import ${formatCount(creates)} items`}
              </Button>
              <span className="muted">All or nothing: one transaction.</span>
            </div>
          )}
        </section>
      )}
    </>
  );
}
