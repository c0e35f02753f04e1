import '../../../styles/badges.css';
import { badgePath } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { Dialog } from '../../../components/ui/Dialog';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { Skeleton } from '../../../components/ui/Skeleton';
import { monitorBadgesQuery } from '../api/badges';
import { BadgeBuilder } from './BadgeBuilder';

/** Embeddable badges of the monitor, or why it has none (they need a published status page). */
export function BadgePanel({ monitor }: { monitor: { id: number; name: string } }) {
  const { data, error } = useQuery(monitorBadgesQuery(monitor.id));
  const [open, setOpen] = useState(false);
  const available = data !== undefined && data.pages.length > 0;
  const first = data?.pages[0];
  return (
    <section className="panel badge-panel" aria-labelledby="badge-heading">
      <div className="panel__head">
        <h2 id="badge-heading" className="panel__title">
          Badge
        </h2>
        {available && <Button onClick={() => setOpen(true)}>Build a badge</Button>}
      </div>
      {error ? (
        <ErrorNotice error={error} live={false} />
      ) : !data ? (
        <Skeleton width={240} />
      ) : available ? (
        <div className="badge-panel__intro">
          <img src={badgePath(monitor.id, 'status')} alt={`${data.label ?? monitor.name} status`} />
          <p className="muted">
            Show its status or uptime in a README or on another site. Badges name it as the status
            page <a href={`/status/${first?.slug ?? ''}`}>{first?.title}</a> does.
          </p>
        </div>
      ) : (
        <Notice title="Badges work for monitors shown on a published status page — add it to one.">
          Until then its badge addresses answer “not found”.{' '}
          <Link to="/status-pages">Go to status pages</Link>
        </Notice>
      )}
      {available && (
        <Dialog
          open={open}
          title="Embed a badge"
          className="badge-dialog"
          onClose={() => setOpen(false)}
        >
          <BadgeBuilder monitor={monitor} info={data} />
        </Dialog>
      )}
    </section>
  );
}
