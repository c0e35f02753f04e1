import type { Escalation } from '@pagewatch/contract';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../../components/ui/Button';
import { ErrorNotice, Notice } from '../../../components/ui/Notice';
import { formatDateTime } from '../../../lib/format';
import { useCan } from '../../auth/api/session';
import { monitorEscalationsQuery, useAcknowledge } from '../api/escalations';

const through = { link: 'a link in an alert', ui: 'the web app', api: 'the API' } as const;

/** The escalation of the outage that began at or before `since` and is the monitor's latest. */
function current(items: readonly Escalation[], since: string): Escalation | null {
  const e = items[0];
  if (!e) return null;
  // Started within a minute of the incident: the same outage (the DOWN alert follows retries).
  return Date.parse(e.startedAt) >= Date.parse(since) - 60_000 ? e : null;
}

/**
 * Where an outage's escalation stands, on its incident: who was paged, whether someone
 * acknowledged, and the Acknowledge button while it is still escalating.
 */
export function EscalationPanel({ monitorId, since }: { monitorId: number; since: string }) {
  const canAck = useCan('editor');
  const query = useQuery(monitorEscalationsQuery(monitorId));
  const ack = useAcknowledge(monitorId);
  const e = current(query.data?.items ?? [], since);
  if (!e) return null;
  const notified = e.notifiedChannelIds.length;
  const who = `${notified} ${notified === 1 ? 'channel' : 'channels'} notified`;
  if (e.acknowledgement) {
    const a = e.acknowledgement;
    return (
      <Notice className="section-gap esc-notice" title={`Acknowledged by ${a.by}`}>
        Through {through[a.via]} at <time dateTime={a.at}>{formatDateTime(a.at)}</time>; the
        escalation stopped ({who}).
      </Notice>
    );
  }
  if (e.resolvedAt) return null;
  return (
    <Notice
      tone="warning"
      className="section-gap esc-notice"
      title="Escalating: nobody has acknowledged yet"
      action={
        canAck ? (
          <Button
            variant="primary"
            icon="checkCircle"
            busy={ack.isPending}
            onClick={() => ack.mutate(e.id)}
          >
            Acknowledge
          </Button>
        ) : undefined
      }
    >
      {who}
      {e.nextDueAt ? (
        <>
          ; the next step is due at{' '}
          <time dateTime={e.nextDueAt}>{formatDateTime(e.nextDueAt)}</time>
        </>
      ) : (
        '; the policy has no steps left'
      )}
      .{ack.error ? <ErrorNotice error={ack.error} /> : null}
    </Notice>
  );
}
