import type { NotificationChannel } from '@pagewatch/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { plural } from '../../../lib/format';
import { useDeleteChannel } from '../api/mutations';
import { AttachDialog } from './AttachDialog';

/** Attach to many monitors at once, and delete with confirmation ("Send test" is in the form). */
export function ChannelTools({ channel }: { channel: NotificationChannel }) {
  const remove = useDeleteChannel();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [attaching, setAttaching] = useState(false);
  const [attached, setAttached] = useState<string | null>(null);
  return (
    <section className="channel-tools" aria-label="Attach and delete">
      <div className="channel-tools__buttons">
        <Button
          icon="plus"
          onClick={() => {
            setAttached(null);
            setAttaching(true);
          }}
        >
          Attach to monitors…
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
      <p className="field__hint">
        Alerts through it from {plural(channel.monitorCount, 'monitor')}.
      </p>
      {attached && <Notice live title={attached} className="notice--ok section-gap" />}
      {/* Mounted while open: each opening starts from "All monitors". */}
      {attaching && (
        <AttachDialog
          channel={channel}
          open
          onClose={(result) => {
            setAttaching(false);
            setAttached(result);
          }}
        />
      )}
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
