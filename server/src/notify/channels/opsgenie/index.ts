import type { AlertEvent } from '@pagewatch/contract';
import { plain, renderMessage } from '../../message.js';
import { postJson } from '../../outbound.js';
import { alertKey, isRecovery } from '../alert-key.js';
import { clip, defineChannel, joinUrl } from '../define.js';

function tagsOf(event: AlertEvent): string[] {
  const tags = ['pagewatch', event.kind];
  if (event.monitor) tags.push(event.monitor.type);
  return tags;
}

/** Alert API v2: create under an alias per monitor/incident; a recovery closes that alias. */
export const opsgenie = defineChannel('opsgenie', async (target, event, ctx) => {
  const m = renderMessage(event, target.template, ctx.publicUrl);
  const headers = { authorization: `GenieKey ${target.secrets.apiKey}` };
  const alias = alertKey(event);
  if (isRecovery(event)) {
    const path = `/v2/alerts/${encodeURIComponent(alias)}/close?identifierType=alias`;
    const note = clip(m.summary(plain), 25_000);
    await postJson(
      joinUrl(target.config.apiUrl, path),
      { source: 'Pagewatch', note },
      ctx,
      headers,
    );
    return;
  }
  const details: Record<string, string> = { event: event.kind };
  for (const f of m.fields) details[f.label] = f.value;
  if (m.url) details.link = m.url;
  const payload = {
    message: clip(m.title, 130),
    alias,
    description: clip(m.text, 15_000),
    priority: m.tone === 'info' ? 'P5' : target.config.priority,
    source: 'Pagewatch',
    tags: tagsOf(event),
    details,
  };
  await postJson(joinUrl(target.config.apiUrl, '/v2/alerts'), payload, ctx, headers);
});
