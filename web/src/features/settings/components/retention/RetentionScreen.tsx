import type { StorageReport } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../../components/ui/Notice';
import { LoadingBlock } from '../../../../components/ui/Skeleton';
import { formatCount, plural } from '../../../../lib/format';
import { settingsQuery, storageQuery } from '../../api/settings';
import { formatRate, formatSize } from '../../storage-format';
import { RetentionForm } from './RetentionForm';

function Figure({ label, value, sub }: { label: string; value: string; sub: string }) {
  return (
    <div className="stat">
      <p className="stat__label">{label}</p>
      <p className="stat__value">{value}</p>
      <p className="stat__sub">{sub}</p>
    </div>
  );
}

/** Size now, check rate, where the retention takes the database, and whether the disk holds it. */
function StoragePanel({ s }: { s: StorageReport }) {
  const growth = Math.max(0, s.projectedBytes - s.databaseBytes);
  const p = s.projection;
  return (
    <section className="panel" aria-labelledby="storage-title" data-testid="storage">
      <h3 id="storage-title" className="panel__title">
        Storage
      </h3>
      {s.exceedsFreeDisk && (
        <Notice live tone="warning" title="The projection does not fit on the disk">
          At the current check rate the database grows by {formatSize(growth)}, and the data folder
          has {formatSize(s.freeDiskBytes ?? 0)} free. Keep raw results or minute rollups for fewer
          days, check less often, or give the data folder more space.
        </Notice>
      )}
      <div className="stats storage-stats">
        <Figure
          label="Database now"
          value={formatSize(s.databaseBytes)}
          sub={
            s.walBytes === null
              ? 'PostgreSQL schema, with indexes'
              : `SQLite file with ${formatSize(s.walBytes)} of WAL`
          }
        />
        <Figure
          label="Free disk"
          value={s.freeDiskBytes === null ? 'Unknown' : formatSize(s.freeDiskBytes)}
          sub={
            s.freeDiskBytes === null ? 'The database runs on its own server' : 'In the data folder'
          }
        />
        <Figure
          label="Check rate"
          value={formatRate(s.checksPerMinute)}
          sub={plural(s.activeMonitors, 'active monitor')}
        />
        <Figure
          label="Projected size"
          value={formatSize(s.projectedBytes)}
          sub={growth > 0 ? `${formatSize(growth)} more than now` : 'No growth expected'}
        />
      </div>
      <dl className="storage-breakdown">
        <dt>Raw results</dt>
        <dd>
          {formatSize(p.rawBytes)}{' '}
          <span className="storage-breakdown__note">
            at {formatCount(Math.round(s.bytesPerResult))} bytes each
          </span>
        </dd>
        <dt>Minute rollups</dt>
        <dd>{formatSize(p.minuteBytes)}</dd>
        <dt>Hour rollups</dt>
        <dd>{formatSize(p.hourBytes)}</dd>
        <dt>Day rollups</dt>
        <dd>
          {formatSize(p.dayBytes)}
          {p.dayBytesPerYear > 0 && (
            <span className="storage-breakdown__note">
              {' '}
              then {formatSize(p.dayBytesPerYear)} a year
            </span>
          )}
        </dd>
      </dl>
      <p className="panel__intro setting-note">
        Each grain at its full keep, at the current rate, from the saved retention. Files do not
        shrink when rows are deleted: freed space is reused.
      </p>
    </section>
  );
}

/** Settings → Data retention: how long history is kept, and what that costs on disk. */
export function RetentionScreen() {
  const settings = useQuery(settingsQuery());
  const storage = useQuery(storageQuery());
  return (
    <div className="settings-stack">
      {settings.isPending ? (
        <LoadingBlock label="Loading settings" />
      ) : settings.error ? (
        <ErrorNotice error={settings.error} />
      ) : (
        <RetentionForm settings={settings.data} />
      )}
      {storage.isPending ? (
        <LoadingBlock label="Measuring the database" rows={3} />
      ) : storage.error ? (
        <ErrorNotice
          error={storage.error}
          action={<Button onClick={() => void storage.refetch()}>Try again</Button>}
        />
      ) : (
        <StoragePanel s={storage.data} />
      )}
    </div>
  );
}
