import type { OnCallSchedule } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { CopyButton } from '../../../components/ui/CopyButton';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { isApiError } from '../../../lib/api';
import { formatInstantIn } from '../../../lib/format';
import { NotificationTabs } from '../../notifications/components/NotificationTabs';
import {
  myFeedQuery,
  onCallNowQuery,
  scheduleListQuery,
  timelineQuery,
  useDeleteSchedule,
} from '../api/oncall';
import { OverridesPanel } from './oncall/OverridesPanel';
import { ScheduleForm } from './oncall/ScheduleForm';
import { Timeline } from './oncall/Timeline';

/** A feed URL to paste into a calendar app, with its copy button. */
function FeedLink({ url, label }: { url: string; label: string }) {
  return (
    <div className="oncall-feed">
      <code className="oncall-feed__url" title={url}>
        {url}
      </code>
      <CopyButton text={url} label={label} size="sm" />
    </div>
  );
}

/** One schedule: now and next, the next 14 days, overrides, feed; edit and delete. */
function ScheduleCard({
  schedule,
  onEdit,
  onDelete,
}: {
  schedule: OnCallSchedule;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const now = useQuery(onCallNowQuery(schedule.id));
  const timeline = useQuery(timelineQuery(schedule.id));
  const n = now.data;
  const zone = schedule.timeZone;
  return (
    <li className="panel oncall-card" aria-label={schedule.name}>
      <div className="oncall-card__head">
        <div>
          <h2 className="panel__title">{schedule.name}</h2>
          <p className="muted">
            {zone.replaceAll('_', ' ')} · {schedule.layers.length}{' '}
            {schedule.layers.length === 1 ? 'layer' : 'layers'}
          </p>
        </div>
        <div className="actions__buttons">
          <Button size="sm" icon="edit" onClick={onEdit}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" icon="trash" onClick={onDelete}>
            Delete
          </Button>
        </div>
      </div>
      <div className="oncall-now">
        <p data-testid="oncall-now">
          {n?.now ? (
            <>
              On call now: <strong>{n.now.userName}</strong>
              {n.now.source === 'override' ? ' (override)' : ''} until{' '}
              <time dateTime={n.now.end}>{formatInstantIn(n.now.end, zone)}</time>
            </>
          ) : now.isPending ? (
            '…'
          ) : (
            'Nobody is on call now.'
          )}
        </p>
        {n?.next && (
          <p data-testid="oncall-next">
            Next: <strong>{n.next.userName}</strong>
            {n.next.source === 'override' ? ' (override)' : ''} from{' '}
            <time dateTime={n.next.start}>{formatInstantIn(n.next.start, zone)}</time>
          </p>
        )}
      </div>
      {now.error ? <ErrorNotice error={now.error} /> : null}
      <h3 className="oncall-subtitle">Next 14 days</h3>
      {timeline.data ? <Timeline timeline={timeline.data} /> : null}
      {timeline.error ? <ErrorNotice error={timeline.error} /> : null}
      <OverridesPanel schedule={schedule} upcoming={timeline.data?.final ?? []} />
      {n && (
        <section aria-label={`Calendar feed of ${schedule.name}`}>
          <h3 className="oncall-subtitle">Calendar feed</h3>
          <p className="muted">
            Subscribe in a calendar app to see this schedule’s shifts. Anyone with the link can read
            them.
          </p>
          <FeedLink url={n.feedUrl} label="Copy schedule feed" />
        </section>
      )}
    </li>
  );
}

/** On-call schedules (ADR 39, ADR 67): rotations in layers, overrides, timeline and feeds. */
export function OnCallScreen() {
  const schedules = useQuery(scheduleListQuery());
  const myFeed = useQuery(myFeedQuery());
  const remove = useDeleteSchedule();
  const [editing, setEditing] = useState<OnCallSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<OnCallSchedule | null>(null);
  const items = schedules.data?.items ?? [];
  return (
    <>
      <title>On call · Notifications · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Notifications</h1>
          <p className="page-sub">On-call schedules: who is on call now, who is next.</p>
        </div>
        {editing === null && (
          <Button variant="primary" icon="plus" onClick={() => setEditing('new')}>
            New schedule
          </Button>
        )}
      </div>
      <NotificationTabs />
      {editing !== null && (
        <ScheduleForm
          key={editing === 'new' ? 'new' : editing.id}
          schedule={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
      {myFeed.data && (
        <section className="panel section-gap" aria-label="My shifts">
          <h2 className="panel__title">My shifts in a calendar</h2>
          <p className="muted">
            Your own shifts over every schedule, overrides included. Keep the link private.
          </p>
          <FeedLink url={myFeed.data.url} label="Copy my feed" />
        </section>
      )}
      {schedules.error ? <ErrorNotice error={schedules.error} /> : null}
      {items.length === 0 && !schedules.isPending && editing === null && (
        <p className="muted section-gap">No schedules yet.</p>
      )}
      <ul className="esc-list section-gap" aria-label="On-call schedules">
        {items.map((s) => (
          <ScheduleCard
            key={s.id}
            schedule={s}
            onEdit={() => {
              setEditing(s);
              window.scrollTo({ top: 0 });
            }}
            onDelete={() => {
              remove.reset();
              setDeleting(s);
            }}
          />
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete schedule"
        tone="danger"
        busy={remove.isPending}
        error={
          isApiError(remove.error) && remove.error.kind === 'conflict' ? (
            <Notice tone="danger" title="Still in use" live>
              {remove.error.detail}
            </Notice>
          ) : remove.error ? (
            <ErrorNotice error={remove.error} />
          ) : undefined
        }
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })
        }
      >
        Its overrides go with it. A schedule an escalation policy pages cannot be deleted: take it
        out of the policy first.
      </ConfirmDialog>
    </>
  );
}
