import type { Subscriber } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { formatRelative } from '../../../lib/format';
import { subscribersQuery, useRemoveSubscriber } from '../api/subscribers';

const STATE_LABEL: Record<Subscriber['state'], string> = {
  pending: 'Awaiting confirmation',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
};

/** The newest notice's outcome, with the receiving server's complaint when it failed. */
function LastNotice({ notice }: { notice: Subscriber['lastNotice'] }) {
  if (!notice) return <span className="muted">None yet</span>;
  const tries = `${notice.attempts} attempt${notice.attempts === 1 ? '' : 's'}`;
  switch (notice.state) {
    case 'sent':
      return <span>Delivered {formatRelative(notice.at)}</span>;
    case 'queued':
      return <span>Queued {formatRelative(notice.at)}</span>;
    case 'retrying':
    case 'failed':
      return (
        <span className={notice.state === 'failed' ? 'sp-subscribers__failed' : undefined}>
          {notice.state === 'failed' ? `Failed after ${tries}` : `Retrying (${tries})`}
          {notice.error ? <span className="sp-subscribers__error">{notice.error}</span> : null}
        </span>
      );
  }
}

/** Who follows a saved page; removing one stops their notices (they may subscribe again). */
export function SubscribersList({ pageId }: { pageId: number }) {
  const list = useQuery(subscribersQuery(pageId));
  const remove = useRemoveSubscriber(pageId);
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  if (list.error) return <ErrorNotice error={list.error} />;
  if (!list.data) return null;
  const confirmed = list.data.filter((s) => s.state === 'confirmed').length;
  return (
    <div className="sp-subscribers">
      <p className="field__hint">
        {list.data.length === 0
          ? 'Nobody has subscribed yet.'
          : `${confirmed} confirmed of ${list.data.length} subscriber${list.data.length === 1 ? '' : 's'}.`}
      </p>
      {list.data.length > 0 && (
        <div className="dtable-wrap">
          <table className="dtable">
            <caption className="visually-hidden">Subscribers</caption>
            <thead>
              <tr>
                <th scope="col">Subscriber</th>
                <th scope="col">Last notice</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    <span className="sp-subscribers__address">{s.address}</span>
                    <span className="sp-subscribers__meta">
                      {s.kind === 'email' ? 'Email' : 'Webhook'} · {STATE_LABEL[s.state]}{' '}
                      {formatRelative(s.confirmedAt ?? s.createdAt)}
                    </span>
                  </td>
                  <td>
                    <LastNotice notice={s.lastNotice} />
                  </td>
                  <td>
                    <Button size="sm" variant="ghost" onClick={() => setRemoving(s)}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.address ?? ''}?`}
        confirmLabel="Remove subscriber"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          remove.mutate(removing.id, { onSuccess: () => setRemoving(null) });
        }}
      >
        They get no further notices from this page; they may subscribe again.
      </ConfirmDialog>
    </div>
  );
}
