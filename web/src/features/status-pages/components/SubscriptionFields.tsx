import { useQuery } from '@tanstack/react-query';
import { Notice } from '../../../components/ui/Notice';
import { CheckboxField, SelectField } from '../../monitors/components/form/controls';
import { emailChannelsQuery } from '../api/status-pages';
import type { Draft } from '../draft';

interface Props {
  draft: Draft;
  set: (patch: Partial<Draft>, path: string) => void;
  errorFor: (path: string) => string | undefined;
}

/** Whether visitors may subscribe, and which email channel sends their mail. */
export function SubscriptionFields({ draft, set, errorFor }: Props) {
  const channels = useQuery(emailChannelsQuery());
  const subs = draft.subscriptions;
  const patch = (p: Partial<Draft['subscriptions']>, path: string) =>
    set({ subscriptions: { ...subs, ...p } }, path);
  const list = channels.data;
  const none = list === null || (list !== undefined && list.length === 0);
  const chosen = subs.emailChannelId === null ? '' : String(subs.emailChannelId);
  return (
    <>
      <div className="sp-checks">
        <CheckboxField
          name="subscriptions.webhook"
          label="Webhook subscriptions"
          hint="Visitors give a URL that receives incident and maintenance notices as JSON."
          checked={subs.webhook}
          onChange={(webhook) => patch({ webhook }, 'subscriptions.webhook')}
        />
        <CheckboxField
          name="subscriptions.email"
          label="Email subscriptions"
          hint="Visitors confirm their address, then get incident and maintenance notices."
          checked={subs.email}
          onChange={(email) => patch({ email }, 'subscriptions.email')}
        />
        {/* Said where the box is ticked, not below the whole group. */}
        {subs.email && none && (
          <Notice tone="warning" title="No email channel: subscriber mail cannot be sent">
            {list === null
              ? 'Notification channels are not available to you here; ask an admin to set up an email channel.'
              : 'Add an email notification channel (its SMTP server sends subscriber mail), then choose it here.'}
            {errorFor('subscriptions.emailChannelId') && (
              <p className="field__error">{errorFor('subscriptions.emailChannelId')}</p>
            )}
          </Notice>
        )}
      </div>
      {subs.email && list && list.length > 0 && (
        <SelectField
          name="subscriptions.emailChannelId"
          label="Send subscriber mail through"
          error={errorFor('subscriptions.emailChannelId')}
          value={chosen}
          options={[
            { value: '', label: 'Choose an email channel' },
            ...list.map((c) => ({ value: String(c.id), label: c.name })),
          ]}
          onChange={(v) =>
            patch({ emailChannelId: v === '' ? null : Number(v) }, 'subscriptions.emailChannelId')
          }
        />
      )}
      {subs.email && channels.isError && (
        <Notice tone="warning" title="Email channels could not be loaded" />
      )}
    </>
  );
}
