import '../../../styles/coverage.css';
import type { Monitor } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { ButtonLink } from '../../../components/ui/Button';
import { Notice } from '../../../components/ui/Notice';
import { useMe } from '../../auth/api/session';
import { atLeast } from '../../auth/roles';
import { coverageQuery } from '../api/coverage';

/** On the monitor page: this monitor alerts nobody (no channel, or only disabled ones). */
export function NoChannelNotice({ monitor }: { monitor: Monitor }) {
  const me = useMe();
  const { data } = useQuery(coverageQuery());
  const bare =
    monitor.channelIds.length === 0 || data?.uncovered.some((m) => m.id === monitor.id) === true;
  if (!bare) return null;
  return (
    <Notice
      tone="warning"
      className="section-gap"
      title="This monitor alerts nobody"
      action={
        atLeast(me.role, 'editor') && (
          <ButtonLink size="sm" to={`/monitors/${monitor.id}/edit#alerts`}>
            Choose a channel
          </ButtonLink>
        )
      }
    >
      {monitor.channelIds.length === 0
        ? 'It has no notification channel: when it goes down, nobody is told.'
        : 'Its channels are all disabled: when it goes down, nobody is told.'}
    </Notice>
  );
}
