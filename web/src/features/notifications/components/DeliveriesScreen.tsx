import { DeliveryState } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { SelectField } from '../../monitors/components/form/controls';
import { channelListQuery } from '../api/queries';
import { DeliveriesTable } from './DeliveriesTable';
import { NotificationTabs } from './NotificationTabs';

const stateOptions = [
  { value: '', label: 'Any state' },
  ...DeliveryState.options.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
];

/** The delivery log of every channel, filtered by channel and state (kept in the URL). */
export function DeliveriesScreen() {
  const [params, setParams] = useSearchParams();
  const channels = useQuery(channelListQuery());
  const channelId = Number(params.get('channel')) || undefined;
  const stateParam = params.get('state') ?? '';
  const state = DeliveryState.safeParse(stateParam).data;
  const setParam = (key: string, value: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const channelOptions = [
    { value: '', label: 'All channels' },
    ...(channels.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name })),
  ];
  return (
    <>
      <title>Deliveries · Notifications · Pagewatch</title>
      <div className="page-head">
        <div>
          <h1 className="page-title">Notifications</h1>
          <p className="page-sub">Each alert per channel: sent, waiting to retry, or failed.</p>
        </div>
      </div>
      <NotificationTabs />
      <div className="dl-filters">
        <SelectField
          name="channel"
          label="Channel"
          value={channelId ? String(channelId) : ''}
          options={channelOptions}
          onChange={(v) => setParam('channel', v)}
        />
        <SelectField
          name="state"
          label="State"
          value={state ?? ''}
          options={stateOptions}
          onChange={(v) => setParam('state', v)}
        />
      </div>
      <DeliveriesTable filter={{ channelId, state }} canRetry />
    </>
  );
}
