import '../../../styles/coverage.css';
import '../../../styles/notifications.css';
import type { NotificationChannel } from '@pagewatch/contract';
import { useId, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { useModal } from '../../../components/ui/use-modal';
import { ChannelForm } from './ChannelForm';

interface ChannelDialogProps {
  open: boolean;
  onClose: () => void;
  onSaved: (channel: NotificationChannel) => void;
}

// React events bubble through portals: the monitor form around must not see this form's.
const stop = (event: SyntheticEvent) => event.stopPropagation();

/** "Add a channel" over another form (the monitor's), whose typed input stays as it was. */
export function ChannelDialog({ open, onClose, onSaved }: ChannelDialogProps) {
  const ref = useModal(open);
  const titleId = useId();
  return createPortal(
    <dialog
      ref={ref}
      className="dialog dialog--wide"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onSubmit={stop}
      onBlur={stop}
      onChange={stop}
    >
      {open && (
        <div className="dialog__panel">
          <h2 id={titleId} className="dialog__title">
            Add a notification channel
          </h2>
          <ChannelForm channel={null} onSaved={onSaved} onCancel={onClose} />
        </div>
      )}
    </dialog>,
    document.body,
  );
}
