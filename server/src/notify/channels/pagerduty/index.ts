import type { AlertEvent } from '@pagewatch/contract';
import { plain, renderMessage } from '../../message.js';
import { postJson } from '../../outbound.js';
import type { SendContext } from '../../channel.js';
import { alertKey, isRecovery } from '../alert-key.js';
import { clip, defineChannel, type TargetOf } from '../define.js';

function triggerPayload(target: TargetOf<'pagerduty'>, event: AlertEvent, ctx: SendContext) {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const severity =
    m.tone === 'critical' ? target.config.severity : m.tone === 'warning' ? 'warning' : 'info';
  const payload: Record<string, unknown> = {
    summary: clip(m.title, 1024),
    source: event.monitor?.target || 'Pagewatch',
    severity,
    timestamp: event.at,
    component: event.monitor?.name ?? event.incident?.title ?? 'Pagewatch',
    custom_details: {
      event: event.kind,
      message: m.summary(plain),
      ...Object.fromEntries(m.fields.map((f) => [f.label, f.value])),
    },
  };
  if (event.monitor) payload.group = event.monitor.type;
  if (event.cause?.code) payload.class = event.cause.code;
  const body: Record<string, unknown> = {
    routing_key: target.secrets.routingKey,
    event_action: 'trigger',
    dedup_key: alertKey(event),
    payload,
    client: 'Pagewatch',
  };
  const links = [
    ...(m.url ? [{ href: m.url, text: m.linkLabel }] : []),
    // PagerDuty's own acknowledge stays PagerDuty's; this one stops Pagewatch's escalation.
    ...(m.ackUrl ? [{ href: m.ackUrl, text: 'Acknowledge in Pagewatch' }] : []),
  ];
  if (links.length > 0) body.links = links;
  if (ctx.publicUrl) body.client_url = ctx.publicUrl;
  return body;
}

/** Events API v2: one alert per monitor/incident (dedup_key), resolved by its recovery. */
export const pagerduty = defineChannel('pagerduty', async (target, event, ctx) => {
  const body = isRecovery(event)
    ? {
        routing_key: target.secrets.routingKey,
        event_action: 'resolve',
        dedup_key: alertKey(event),
      }
    : triggerPayload(target, event, ctx);
  await postJson(target.config.eventsUrl, body, ctx);
});
