import type { NotificationChannel } from '@pagewatch/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { plural } from '../../../lib/format';
import { useDeleteChannel, useTestChannel } from '../api/mutations';

/** "Send test" with the receiver's exact answer, and delete with confirmation. */
export function ChannelTools({ channel }: { channel: NotificationChannel }) {
  const test = useTestChannel();
  const remove = useDeleteChannel();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const result = test.data;
  return (
    <section className="channel-tools" aria-label="Test and delete">
      <div className="channel-tools__buttons">
        <Button icon="activity" busy={test.isPending} onClick={() => test.mutate(channel.id)}>
          Send test
        </Button>
        <Button
          variant="danger"
          icon="trash"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          Delete channel
        </Button>
      </div>
      <p className="field__hint">The test uses the saved settings.</p>
      {test.error && <ErrorNotice error={test.error} />}
      {result &&
        !test.isPending &&
        (result.ok ? (
          <Notice live title="Test delivered" className="notice--ok section-gap">
            {channel.name} accepted the test message in {result.durationMs} ms.
          </Notice>
        ) : (
          <Notice live tone="danger" title="The test was not delivered">
            <code className="test-error">{result.error}</code>
          </Notice>
        ))}
      <ConfirmDialog
        open={confirming}
        title={`Delete “${channel.name}”?`}
        confirmLabel="Delete channel"
        tone="danger"
        busy={remove.isPending}
        error={remove.error ? <ErrorNotice error={remove.error} /> : undefined}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(channel.id, {
            onSuccess: () => void navigate('/notifications', { replace: true }),
          })
        }
      >
        {channel.monitorCount > 0
          ? `${plural(channel.monitorCount, 'monitor')} stop alerting through it. `
          : ''}
        Alerts still waiting to be sent through it are dropped.
      </ConfirmDialog>
    </section>
  );
}
