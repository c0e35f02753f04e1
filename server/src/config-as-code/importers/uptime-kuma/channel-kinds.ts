/**
 * Kuma's chat and paging notification forms, field by field as Kuma's own providers read them
 * (louislam/uptime-kuma server/notification-providers/*.js and src/components/notifications/*.vue).
 */

export type Form = Record<string, unknown>;
export type Mapped =
  | { kind: string; config: Form; secrets: Form; notes?: string[] }
  | { skip: string; notes?: string[] };

export const str = (v: unknown): string =>
  typeof v === 'string'
    ? v.trim()
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : '';

const on = (v: unknown) => v === true || v === 'true' || v === 1;
const leftOut = (f: Form, fields: Record<string, string>): string[] =>
  Object.entries(fields)
    .filter(([field]) => str(f[field]) !== '')
    .map(([field, what]) => `${what} (${field}) was left out`);

function discord(f: Form): Mapped {
  const type = str(f.discordChannelType) || 'channel';
  if (type === 'createNewForumPost') {
    return { skip: 'Kuma opened a Discord forum post per alert; Pagewatch posts to a channel' };
  }
  let webhookUrl = str(f.discordWebhookUrl);
  // discord.js appends thread_id to the webhook URL; Pagewatch posts to the URL as it is.
  if (type === 'postToThread' && str(f.threadId) !== '' && URL.canParse(webhookUrl)) {
    const url = new URL(webhookUrl);
    url.searchParams.append('thread_id', str(f.threadId));
    webhookUrl = url.toString();
  }
  const notes = leftOut(f, { discordPrefixMessage: 'Its prefix message' });
  if (str(f.discordMessageFormat) === 'custom' || on(f.discordUseMessageTemplate))
    notes.push("Kuma's custom message template was left out; Pagewatch sends its own embed");
  if (on(f.discordSuppressUp) || on(f.discordSuppressDown))
    notes.push('Kuma suppressed up or down messages here; Pagewatch sends both');
  if (on(f.discordSuppressNotifications))
    notes.push("Kuma's silent messages (no push notifications) became ordinary ones");
  if (on(f.disableUrl)) notes.push('Kuma left the address out; Pagewatch links the monitor');
  return {
    kind: 'discord',
    config: { username: str(f.discordUsername) },
    secrets: { webhookUrl },
    notes,
  };
}

function pushover(f: Form): Mapped {
  // Kuma sends pushoverpriority as is; unset, Pushover uses its default, 0.
  const raw = str(f.pushoverpriority);
  const priority = raw === '' ? 0 : Number(raw);
  const notes = leftOut(f, { pushovertitle: 'Its message title', pushoverttl: 'Its time to live' });
  if (priority === 2) notes.push('Emergency messages repeat every 60 s (Kuma: 30 s) for an hour');
  return {
    kind: 'pushover',
    config: { priority, device: str(f.pushoverdevice), sound: str(f.pushoversounds) },
    secrets: { appToken: str(f.pushoverapptoken), userKey: str(f.pushoveruserkey) },
    notes,
  };
}

function pagerDuty(f: Form): Mapped {
  const onRecovery = str(f.pagerdutyAutoResolve);
  const notes: string[] = [];
  if (onRecovery === 'acknowledge')
    notes.push('Kuma acknowledged the PagerDuty alert on recovery; Pagewatch resolves it');
  else if (onRecovery !== 'resolve')
    notes.push('Kuma left the PagerDuty alert open on recovery; Pagewatch resolves it');
  const priority = str(f.pagerdutyPriority);
  return {
    kind: 'pagerduty',
    config: {
      eventsUrl: str(f.pagerdutyIntegrationUrl) || 'https://events.pagerduty.com/v2/enqueue',
      // pagerduty.js: `pagerdutyPriority || "warning"`.
      severity: priority === '' ? 'warning' : priority,
    },
    secrets: { routingKey: str(f.pagerdutyIntegrationKey) },
    notes,
  };
}

function opsgenie(f: Form): Mapped {
  // opsgenie.js: `!opsgeniePriority ? 3 : opsgeniePriority`, sent as `P${priority}`.
  const set = str(f.opsgeniePriority);
  const priority = set === '' || set === '0' ? '3' : set;
  return {
    kind: 'opsgenie',
    config: {
      apiUrl:
        str(f.opsgenieRegion) === 'eu' ? 'https://api.eu.opsgenie.com' : 'https://api.opsgenie.com',
      priority: `P${priority}`,
    },
    secrets: { apiKey: str(f.opsgenieApiKey) },
  };
}

function gotify(f: Form): Mapped {
  // gotify.js sends `gotifyPriority || 8`, so 0 and an empty field went out as 8.
  const set = Number(str(f.gotifyPriority) || 'NaN');
  const priority = str(f.gotifyPriority) === '' || set === 0 ? 8 : set;
  return {
    kind: 'gotify',
    config: { serverUrl: str(f.gotifyserverurl).replace(/\/+$/, ''), priority },
    secrets: { appToken: str(f.gotifyapplicationToken) },
    notes: set === 0 ? ['Priority 0 became 8, which is what Kuma sent'] : [],
  };
}

/** Keyed by Kuma's notification `type` (src/components/notifications/index.js). */
export const chatProviders: Record<string, (f: Form) => Mapped> = {
  discord,
  teams: (f) => ({
    kind: 'teams',
    config: {},
    secrets: { webhookUrl: str(f.webhookUrl) },
    notes: [
      'Kuma sent an Office 365 connector card; Pagewatch sends an Adaptive Card: send a test message, as an old connector address may not take it',
    ],
  }),
  mattermost: (f) => ({
    kind: 'mattermost',
    // mattermost.js lower-cases the channel before sending.
    config: {
      channel: str(f.mattermostchannel).toLowerCase(),
      username: str(f.mattermostusername),
    },
    secrets: { webhookUrl: str(f.mattermostWebhookUrl) },
    notes: leftOut(f, { mattermosticonurl: 'Its icon URL', mattermosticonemo: 'Its icon emoji' }),
  }),
  'rocket.chat': (f) => ({
    kind: 'rocketchat',
    config: { channel: str(f.rocketchannel), username: str(f.rocketusername) },
    secrets: { webhookUrl: str(f.rocketwebhookURL) },
    notes: leftOut(f, { rocketiconemo: 'Its icon emoji', rocketbutton: 'Its Kuma link' }),
  }),
  gotify,
  pushover,
  PagerDuty: pagerDuty,
  Opsgenie: opsgenie,
};
