import { importLimits, type ImportReport, type ImportSource } from '@pagewatch/contract';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Button, ButtonLink } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { Segmented } from '../../../../components/ui/Segmented';
import { formatCount } from '../../../../lib/format';
import { useImport } from '../../api/import';
import { ImportReportView, sourceNames } from './ImportReportView';

/** What each source imports, and which files its picker offers. */
const copy: Record<ImportSource, { about: ReactNode; accept: string; after: string }> = {
  'uptime-kuma': {
    about: (
      <>
        Monitors, notification channels with their secrets, status pages, maintenance windows and 90
        days of history, from Kuma 2.x’s <code>kuma.db</code> (stop Kuma first) or a Kuma 1.x JSON
        backup. Importing again creates nothing twice.
      </>
    ),
    accept: '.db,.sqlite,.sqlite3,.json,application/json,application/vnd.sqlite3',
    after:
      'New monitors start checking now; the imported history shows on their pages and status pages.',
  },
  gatus: {
    about: (
      <>
        Endpoints with their conditions, external endpoints as push monitors, alerting providers as
        channels and alerts as alert rules, from Gatus’s <code>config.yaml</code>. A file that uses
        environment variables (<code>$VAR</code>) is imported with{' '}
        <code>npx pagewatch import gatus</code>, as is a configuration folder. Importing again
        creates nothing twice.
      </>
    ),
    accept: '.yaml,.yml,application/yaml,text/yaml',
    after: 'New monitors start checking now.',
  },
};

/**
 * One source's picker, preview and import. The preview is the server's real outcome, rolled
 * back; nothing is written before the confirmation.
 */
function SourcePanel({ source }: { source: ImportSource }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const run = useImport(source);

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
        <h3 className="panel__title">{sourceNames[source]}</h3>
        <p className="page-sub">{copy[source].about}</p>
        <div className="imp-pick">
          <input
            ref={input}
            id={id}
            type="file"
            className="visually-hidden"
            accept={copy[source].accept}
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
          {copy[source].after}
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

/** Settings → Import: choose the tool to import from, then its file. */
export function ImportScreen() {
  const [source, setSource] = useState<ImportSource>('uptime-kuma');
  return (
    <>
      <div className="imp-source">
        <Segmented
          label="Import from"
          value={source}
          options={[
            { value: 'uptime-kuma', label: 'Uptime Kuma' },
            { value: 'gatus', label: 'Gatus' },
          ]}
          onChange={setSource}
        />
      </div>
      <SourcePanel key={source} source={source} />
    </>
  );
}
