import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readKumaBackup } from '../../src/config-as-code/importers/uptime-kuma/backup-json.js';
import { mapKuma } from '../../src/config-as-code/importers/uptime-kuma/index.js';
import type {
  KumaNotification,
  KumaSource,
} from '../../src/config-as-code/importers/uptime-kuma/source.js';

/*
 * Field names are Kuma's own (repo louislam/uptime-kuma), as its providers read them:
 * server/notification-providers/discord.js  discordWebhookUrl, discordUsername, discordChannelType,
 *   threadId (appended as ?thread_id=), postName (forum posts), discordPrefixMessage
 * teams.js  webhookUrl · mattermost.js  mattermostWebhookUrl, mattermostusername,
 *   mattermostchannel (lower-cased), mattermosticonurl, mattermosticonemo
 * rocket-chat.js  rocketwebhookURL, rocketusername, rocketchannel, rocketiconemo, rocketbutton
 * gotify.js  gotifyserverurl (trailing / cut), gotifyapplicationToken, `gotifyPriority || 8`
 * pushover.js  pushoveruserkey, pushoverapptoken, pushoverdevice, pushoversounds, pushovertitle,
 *   pushoverpriority (sent as is; unset → Pushover's 0), pushoverttl
 * pagerduty.js  pagerdutyIntegrationKey, pagerdutyIntegrationUrl, `pagerdutyPriority || "warning"`,
 *   pagerdutyAutoResolve ("" | "acknowledge" | "resolve")
 * opsgenie.js  opsgenieApiKey, opsgenieRegion ("us" | "eu"), `P${opsgeniePriority || 3}`
 */

const fixture = new URL(
  '../fixtures/uptime-kuma-1.x/Uptime_Kuma_Backup_2026_11_20-09_15_02.json',
  import.meta.url,
);

function source(notifications: KumaNotification[]): KumaSource {
  return {
    origin: 'test',
    monitors: [],
    tags: [],
    monitorTags: [],
    notifications,
    monitorNotifications: [],
    statusPages: [],
    maintenance: [],
    serverTimezone: 'UTC',
    stats: { minute: [], hour: [], day: [] },
  };
}

const form = (id: number, config: Record<string, unknown>): KumaNotification => ({
  id,
  name: `Kuma ${id}`,
  active: true,
  isDefault: false,
  config,
});

describe('Kuma notifications of the chat and paging kinds', () => {
  const plan = mapKuma(readKumaBackup(fs.readFileSync(fixture, 'utf8')));
  const channel = (id: number) =>
    plan.document.channels.find((c) => c.key === `kuma-notification-${id}`);
  const itemOf = (id: number) =>
    plan.items.find((i) => i.source.startsWith(`notification #${id} `))!;

  it('reads a real 1.x backup: every kind with its fields, defaults and links', () => {
    expect(plan.origin).toBe('Uptime Kuma 1.23.16 JSON backup');
    expect(channel(1)).toMatchObject({
      kind: 'discord',
      isDefault: true,
      config: { username: 'Kuma bot' },
      secrets: {
        webhookUrl: 'https://discord.com/api/webhooks/111/aaa?thread_id=1177566663751782411',
      },
    });
    expect(itemOf(1).notes).toEqual(['Its prefix message (discordPrefixMessage) was left out']);
    expect(channel(3)).toMatchObject({
      kind: 'teams',
      secrets: { webhookUrl: 'https://example.webhook.office.com/webhookb2/abc' },
    });
    expect(channel(4)).toMatchObject({
      kind: 'mattermost',
      config: { channel: 'ops-alerts', username: 'kuma' },
      secrets: { webhookUrl: 'https://mm.example.com/hooks/xyz' },
    });
    expect(channel(5)).toMatchObject({
      kind: 'rocketchat',
      config: { channel: '#ops', username: 'kuma' },
      secrets: { webhookUrl: 'https://rocket.example.com/hooks/abc/def' },
    });
    expect(itemOf(5).notes).toEqual(['Its Kuma link (rocketbutton) was left out']);
    expect(channel(6)).toMatchObject({
      kind: 'gotify',
      config: { serverUrl: 'https://gotify.example.com', priority: 8 },
      secrets: { appToken: 'AbCdEf123' },
    });
    expect(channel(7)).toMatchObject({
      kind: 'pushover',
      config: { priority: -1, device: 'phone', sound: 'siren' },
      secrets: {
        userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
        appToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
      },
    });
    expect(channel(8)).toMatchObject({
      kind: 'pagerduty',
      config: { severity: 'warning', eventsUrl: 'https://events.pagerduty.com/v2/enqueue' },
      secrets: { routingKey: 'R0UT1NGKEY0000000000000000000000' },
    });
    expect(itemOf(8).notes.join(' ')).toContain('acknowledged');
    expect(channel(9)).toMatchObject({
      kind: 'opsgenie',
      enabled: false,
      config: { apiUrl: 'https://api.eu.opsgenie.com', priority: 'P1' },
      secrets: { apiKey: 'eb243592-faa2-4ba2-a551q-1afdf565c889' },
    });
    expect(itemOf(2)).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('forum post'),
    });
    const monitors = new Map(plan.document.monitors.map((m) => [m.key, m]));
    expect(monitors.get('kuma-monitor-1')).toMatchObject({
      tags: ['region:eu'],
      channels: ['kuma-notification-1', 'kuma-notification-3', 'kuma-notification-8'],
    });
    // Monitor#toJSON writes the proxy as `proxyId`.
    expect(plan.items.find((i) => i.key === 'kuma-monitor-2')?.notes).toContain(
      'Kuma sent it through a proxy; Pagewatch connects directly',
    );
    expect(monitors.get('kuma-monitor-3')).toMatchObject({ type: 'push', paused: true });
  });

  it("takes Kuma's defaults for fields a form left unset", () => {
    const p = mapKuma(
      source([
        form(1, { type: 'pushover', pushoveruserkey: 'u', pushoverapptoken: 'a' }),
        form(2, { type: 'Opsgenie', opsgenieApiKey: 'k' }),
        form(3, {
          type: 'PagerDuty',
          pagerdutyIntegrationKey: 'r',
          pagerdutyPriority: 'critical',
          pagerdutyAutoResolve: 'resolve',
        }),
        form(4, {
          type: 'gotify',
          gotifyserverurl: 'https://g.example',
          gotifyapplicationToken: 't',
        }),
        form(5, {
          type: 'Opsgenie',
          opsgenieApiKey: 'k',
          opsgeniePriority: '4',
          opsgenieRegion: 'us',
        }),
      ]),
    );
    expect(p.document.channels.map((c) => ('config' in c ? c.config : null))).toEqual([
      { apiUrl: 'https://api.pushover.net', priority: 0, device: '', sound: '' },
      { apiUrl: 'https://api.opsgenie.com', priority: 'P3' },
      { eventsUrl: 'https://events.pagerduty.com/v2/enqueue', severity: 'critical' },
      { serverUrl: 'https://g.example', priority: 8 },
      { apiUrl: 'https://api.opsgenie.com', priority: 'P4' },
    ]);
    expect(p.items.find((i) => i.source.startsWith('notification #3 '))?.notes).toEqual([]);
  });

  it('lists settings Pagewatch cannot hold as skipped, naming the field', () => {
    const p = mapKuma(
      source([
        form(1, { type: 'Opsgenie', opsgenieApiKey: 'k', opsgeniePriority: 7 }),
        form(2, {
          type: 'pushover',
          pushoveruserkey: 'u',
          pushoverapptoken: 'a',
          pushoverpriority: 'high',
        }),
        form(3, { type: 'PagerDuty', pagerdutyIntegrationKey: 'r', pagerdutyPriority: 'urgent' }),
        form(4, {
          type: 'discord',
          discordWebhookUrl: 'https://d.example/h',
          discordChannelType: 'createNewForumPost',
        }),
      ]),
    );
    expect(p.document.channels).toEqual([]);
    expect(p.items.map((i) => [i.outcome, i.reason])).toEqual([
      ['skipped', expect.stringContaining('config.priority')],
      ['skipped', expect.stringContaining('config.priority')],
      ['skipped', expect.stringContaining('config.severity')],
      ['skipped', expect.stringContaining('forum post')],
    ]);
  });
});
