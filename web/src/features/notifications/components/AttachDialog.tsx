import '../../../styles/coverage.css';
import type { NotificationChannel } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog';
import { ErrorNotice } from '../../../components/ui/Notice';
import { Segmented } from '../../../components/ui/Segmented';
import { plural } from '../../../lib/format';
import { tagsInUseQuery } from '../../monitors/api/tags-in-use';
import { SelectField } from '../../monitors/components/form/controls';
import { useAttachChannel } from '../api/coverage';

type Scope = 'all' | 'tag';

interface AttachDialogProps {
  channel: NotificationChannel;
  open: boolean;
  onClose: (attached: string | null) => void;
}

/** Attach a channel to every monitor, or to every monitor with a tag, in one action. */
export function AttachDialog({ channel, open, onClose }: AttachDialogProps) {
  const [scope, setScope] = useState<Scope>('all');
  const [tag, setTag] = useState('');
  const tags = useQuery({ ...tagsInUseQuery(), enabled: open });
  const attach = useAttachChannel(channel.id);
  const chosenTag = tag || tags.data?.[0] || '';
  const noTags = scope === 'tag' && tags.data?.length === 0;
  return (
    <FormDialog
      open={open}
      title={`Attach “${channel.name}” to monitors`}
      submitLabel="Attach"
      busy={attach.isPending}
      onCancel={() => onClose(null)}
      onSubmit={(event) => {
        event.preventDefault();
        if (noTags) return;
        attach.mutate(scope === 'all' ? { scope } : { scope, tag: chosenTag }, {
          onSuccess: (r) =>
            onClose(
              `Attached to ${plural(r.attached, 'monitor')}` +
                (r.matched > r.attached ? `; ${r.matched - r.attached} already had it.` : '.'),
            ),
        });
      }}
    >
      <div className="dialog__body attach-dialog">
        <Segmented
          label="Which monitors"
          value={scope}
          options={[
            { value: 'all', label: 'All monitors' },
            { value: 'tag', label: 'Monitors with a tag' },
          ]}
          onChange={setScope}
        />
        {scope === 'tag' &&
          (noTags ? (
            <p className="muted">No monitor has a tag yet.</p>
          ) : (
            <SelectField
              name="tag"
              label="Tag"
              value={chosenTag}
              options={tags.data ?? []}
              onChange={setTag}
            />
          ))}
        <p className="field__hint">
          Monitors that already alert through it keep it once; their other channels stay.
        </p>
        {attach.error && <ErrorNotice error={attach.error} />}
      </div>
    </FormDialog>
  );
}
