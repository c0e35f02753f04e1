import type { BackupStatus } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../../components/ui/Button';
import { Icon } from '../../../../components/ui/Icon';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { RelativeTime } from '../../../../components/ui/RelativeTime';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { formatDateTime } from '../../../../lib/format';
import { BACKUP_DOWNLOAD_URL, backupStatusQuery, useRefreshBackupStatus } from '../../api/backup';
import { formatBackupDuration, formatBackupSize } from '../../backup-format';
import { ScheduleForm } from './ScheduleForm';

/** The last backup that worked, a failure after it, and the button that makes one now. */
function LastBackup({ status }: { status: BackupStatus }) {
  const refresh = useRefreshBackupStatus();
  const last = status.lastSuccess;
  const failed = status.lastFailure;
  return (
    <section className="panel" aria-labelledby="last-backup-title" data-testid="last-backup">
      <h3 id="last-backup-title" className="panel__title">
        Backup
      </h3>
      <p className="panel__intro">
        One file with everything, history included, read from a single moment while checks go on.
        Its secrets stay sealed with this instance’s key: keep <code>PAGEWATCH_SECRET</code> (or{' '}
        <code>data/secret.key</code>) safe and apart from the files. Restore with{' '}
        <code>npx pagewatch restore &lt;file&gt;</code> into a new instance, SQLite or PostgreSQL.
      </p>
      {failed && (
        <Notice
          tone="danger"
          title={`The last ${failed.kind === 'scheduled' ? 'scheduled ' : ''}backup failed`}
        >
          {formatDateTime(failed.at)}: {failed.error}
        </Notice>
      )}
      <div className="stats backup-stats">
        <div className="stat">
          <p className="stat__label">Last backup</p>
          <p className="stat__value">{last ? <RelativeTime iso={last.at} /> : 'None yet'}</p>
          <p className="stat__sub">
            {last
              ? `${last.kind === 'scheduled' ? 'Scheduled' : 'Downloaded'}, ${formatDateTime(last.at)}`
              : 'Download one, or turn on the schedule'}
          </p>
        </div>
        <div className="stat">
          <p className="stat__label">Size</p>
          <p className="stat__value">{last?.bytes != null ? formatBackupSize(last.bytes) : '—'}</p>
          <p className="stat__sub">
            {last ? `Took ${formatBackupDuration(last.durationMs)}` : 'Gzipped'}
          </p>
        </div>
        <div className="stat">
          <p className="stat__label">Next scheduled</p>
          <p className="stat__value">
            {status.nextAt ? <RelativeTime iso={status.nextAt} /> : 'Off'}
          </p>
          <p className="stat__sub">
            {status.nextAt
              ? `Every ${status.settings.intervalHours} h, keeping ${status.settings.keep}`
              : 'No schedule'}
          </p>
        </div>
      </div>
      {last?.file && (
        <p className="backup-file">
          <span className="muted">Last file:</span> <code>{last.file}</code>
        </p>
      )}
      <div className="stack-form__buttons">
        <a className="btn btn--primary" href={BACKUP_DOWNLOAD_URL} download onClick={refresh}>
          <Icon name="download" />
          Download backup now
        </a>
      </div>
    </section>
  );
}

/** Settings → Backups: download one now, the schedule, and how the last ones went. */
export function BackupsScreen() {
  const status = useQuery(backupStatusQuery());
  if (status.isPending) return <LoadingBlock label="Loading backups" />;
  if (status.error)
    return (
      <ErrorNotice
        error={status.error}
        action={
          <Button size="sm" onClick={() => void status.refetch()}>
            Try again
          </Button>
        }
      />
    );
  return (
    <div className="backup-stack">
      <LastBackup status={status.data} />
      <ScheduleForm status={status.data} />
    </div>
  );
}
