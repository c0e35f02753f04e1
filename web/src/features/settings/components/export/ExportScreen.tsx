import { useQuery } from '@tanstack/react-query';
import { CopyButton } from '../../../../components/ui/CopyButton';
import { Icon } from '../../../../components/ui/Icon';
import { formatCount } from '../../../../lib/format';
import { configDriftQuery, configManagedQuery } from '../../../config/api';
import { DriftChanges } from '../../../config/DriftList';

/** Where the browser downloads the configuration: a plain link, answered as a file. */
const exportUrl = (format: 'yaml' | 'json') => `/api/v1/export?format=${format}`;

/** The commands that keep the configuration in Git, with this instance's address filled in. */
function gitWorkflow(origin: string): string {
  return [
    `export PAGEWATCH_URL=${origin}`,
    'export PAGEWATCH_API_KEY=pw_…   # Settings → API keys, an admin’s key',
    'npx pagewatch export -o pagewatch.yaml',
    'npx pagewatch validate pagewatch.yaml',
    'npx pagewatch plan pagewatch.yaml --out plan.json',
    'npx pagewatch apply --plan plan.json pagewatch.yaml',
  ].join('\n');
}

function ManagedNow() {
  const managed = useQuery(configManagedQuery());
  if (!managed.data) return null;
  const rows = [
    ['Monitors', managed.data.monitors.length],
    ['Notification channels', managed.data.channels.length],
    ['Status pages', managed.data.statusPages.length],
    ['Maintenance windows', managed.data.maintenance.length],
  ] as const;
  const total = rows.reduce((n, [, count]) => n + count, 0);
  return (
    <section className="panel" aria-labelledby="managed-title" data-testid="managed-now">
      <h3 id="managed-title" className="panel__title">
        Managed by configuration files
      </h3>
      <p className="panel__intro">
        {total === 0
          ? 'Nothing yet: everything here is edited in the app. Applying a file marks what it defines as managed, and the app then shows those read-only.'
          : 'These are defined by files and read-only in the app; an admin can detach one from its page to edit it here again.'}
      </p>
      <div className="stats">
        {rows.map(([label, count]) => (
          <div className="stat" key={label}>
            <p className="stat__label">{label}</p>
            <p className="stat__value">{formatCount(count)}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

const kindLabel = {
  channels: 'Channel',
  monitors: 'Monitor',
  statusPages: 'Status page',
  maintenance: 'Maintenance window',
  slos: 'SLO',
} as const;

/** Managed resources edited here since the last apply: what the next plan lists as drift. */
function DriftNow() {
  const drift = useQuery(configDriftQuery());
  const entries = drift.data?.drift ?? [];
  if (entries.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="drift-title" data-testid="drift-now">
      <h3 id="drift-title" className="panel__title">
        Changed outside the files
      </h3>
      <p className="panel__intro">
        {formatCount(entries.length)} managed{' '}
        {entries.length === 1 ? 'resource was' : 'resources were'} changed here (or through the API)
        since the last apply, last applied → now. The next apply of unchanged files undoes these;
        copy what should stay into the files first.
      </p>
      <ul className="drift-list">
        {entries.map((e) => (
          <li key={`${e.kind}:${e.key}`}>
            <span className="muted">{kindLabel[e.kind]}</span> <code>{e.key}</code>
            <DriftChanges changes={e.changes} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Settings → Export: the whole configuration as a file, and how to keep it in Git. */
export function ExportScreen() {
  const workflow = gitWorkflow(window.location.origin);
  return (
    <div className="backup-stack">
      <section className="panel" aria-labelledby="export-title">
        <h3 id="export-title" className="panel__title">
          Download the configuration
        </h3>
        <p className="panel__intro">
          Every monitor, notification channel, status page and maintenance window as one document,
          each with a stable key. Secrets are written as <code>{'${env:NAME}'}</code> references,
          never their values, so the file can live in Git. History is not in it: for that, take a{' '}
          <a href="/settings/backups">backup</a>.
        </p>
        <div className="stack-form__buttons">
          <a className="btn btn--primary" href={exportUrl('yaml')} download="pagewatch.yaml">
            <Icon name="download" />
            Download YAML
          </a>
          <a className="btn" href={exportUrl('json')} download="pagewatch.json">
            <Icon name="download" />
            Download JSON
          </a>
        </div>
        <p className="muted export__schema">
          Editors validate and complete the files with the{' '}
          <a href="/api/v1/config/schema.json">JSON Schema</a> (in YAML, a first line{' '}
          <code># yaml-language-server: $schema=…/api/v1/config/schema.json</code>).
        </p>
      </section>
      <section className="panel" aria-labelledby="git-title">
        <h3 id="git-title" className="panel__title">
          Keep it in Git
        </h3>
        <p className="panel__intro">
          From a checkout of your repository: export once, then edit the file, review what an apply
          would change (and what someone changed here meanwhile), and apply exactly that plan. An
          apply refuses if the instance changed after its plan.
        </p>
        <div className="export__code-head">
          <span>Commands</span>
          <CopyButton text={workflow} size="sm" />
        </div>
        <pre className="push__code" tabIndex={0}>
          <code>{workflow}</code>
        </pre>
      </section>
      <ManagedNow />
      <DriftNow />
    </div>
  );
}
