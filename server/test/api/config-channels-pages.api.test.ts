import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkFiles, printProblem } from '../../src/config-as-code/check.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

type Report = Record<string, { created: string[]; updated: string[]; unchanged: string[] }>;
type Loose = Record<string, unknown>;
type Doc = { channels: Loose[]; statusPages: Loose[] } & Loose;

const night = { days: [1, 2, 3, 4, 5], from: '22:00', to: '07:00', timeZone: 'Europe/Berlin' };

/** The ops channel names one listed after it: it waits for that one to be created. */
const document = {
  version: 1,
  channels: [
    {
      key: 'ops',
      kind: 'webhook',
      name: 'Ops',
      config: { url: 'https://ops.example.com/hook' },
      fallbackChannel: 'backup',
      failThreshold: 5,
      quietHours: { windows: [night], rerouteChannel: 'backup' },
    },
    { key: 'backup', kind: 'webhook', name: 'Backup', config: { url: 'https://b.example.com/' } },
  ],
  monitors: [{ key: 'web', type: 'http', name: 'Web', url: 'https://www.example.com/' }],
  statusPages: [
    {
      key: 'public',
      slug: 'public',
      title: 'Public',
      show: { monthlyUptime: true, latencyChart: true },
      sections: [{ title: 'Site', components: [{ monitor: 'web', showLocations: true }] }],
    },
  ],
};

describe.each(engines)(
  'channel delivery options and status page options in files on %s',
  (engine) => {
    let t: TestApp;
    let fresh: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ engine });
      fresh = await startTestApp({ engine });
    });
    afterAll(async () => {
      await t.stop();
      await fresh.stop();
    });

    const apply = async (app: TestApp, doc: unknown) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/config/apply',
        payload: { document: doc },
      });
      return { status: res.statusCode, body: res.json<Report>() };
    };
    const exported = async (app: TestApp) => {
      const res = await app.inject('/api/v1/export?format=yaml');
      expect(res.statusCode, res.body).toBe(200);
      return { text: res.body, document: parse(res.body) as Doc };
    };
    const channels = async (app: TestApp) =>
      (await app.inject('/api/v1/notification-channels')).json<{
        items: { id: number; name: string; fallbackChannelId: number | null; quietHours: Loose }[];
      }>().items;

    it('applies fallback, fail threshold and quiet hours by key, and the page’s options', async () => {
      const { status, body } = await apply(t, document);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.channels!.created.sort()).toEqual(['backup', 'ops']);
      const list = await channels(t);
      const backup = list.find((c) => c.name === 'Backup')!;
      const ops = list.find((c) => c.name === 'Ops')!;
      expect(ops).toMatchObject({
        fallbackChannelId: backup.id,
        failThreshold: 5,
        quietHours: { windows: [night], rerouteChannelId: backup.id },
      });
      const pages = (await t.inject('/api/v1/status-pages')).json<{ items: { id: number }[] }>();
      const page = (await t.inject(`/api/v1/status-pages/${pages.items[0]!.id}`)).json<Loose>();
      expect(page).toMatchObject({
        show: { monthlyUptime: true, latencyChart: true },
        sections: [{ components: [{ showLocations: true }] }],
      });
    });

    it('exports them, applies back unchanged, and a fresh instance gets the same', async () => {
      const { text, document: doc } = await exported(t);
      const ops = doc.channels.find((c) => c.key === 'ops')!;
      expect(ops).toMatchObject({
        fallbackChannel: 'backup',
        failThreshold: 5,
        quietHours: { windows: [night], rerouteChannel: 'backup' },
      });
      expect(text).not.toMatch(/ChannelId/);
      expect(checkFiles([{ file: 'export.yaml', text }]).problems).toEqual([]);
      const again = await apply(t, doc);
      expect(again.status).toBe(200);
      expect(again.body.channels!.unchanged.sort()).toEqual(['backup', 'ops']);
      expect(again.body.statusPages!.unchanged).toEqual(['public']);
      const plan = await t.inject({
        method: 'POST',
        url: '/api/v1/config/plan',
        payload: { document: doc },
      });
      const planned = plan.json<{ entries: { action: string }[]; drift: unknown[] }>();
      expect(planned.drift).toEqual([]);
      expect(new Set(planned.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
      // Another instance, from the export alone: nothing is lost on the way.
      const copy = await apply(fresh, doc);
      expect(copy.status, JSON.stringify(copy.body)).toBe(200);
      expect((await exported(fresh)).text).toBe(text);
    });

    it('shows quiet hours changed in the app as drift, and the files put them back', async () => {
      const ops = (await channels(t)).find((c) => c.name === 'Ops')!;
      const put = await t.inject({
        method: 'PUT',
        url: `/api/v1/notification-channels/${ops.id}`,
        payload: {
          kind: 'webhook',
          name: 'Ops',
          config: { url: 'https://ops.example.com/hook' },
          fallbackChannelId: null,
          failThreshold: 5,
          quietHours: { windows: [], rerouteChannelId: null },
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      const drift = (await t.inject('/api/v1/config/drift')).json<{
        drift: { key: string; changes: { path: string }[] }[];
      }>().drift;
      expect(drift.map((d) => [d.key, d.changes.map((c) => c.path).sort()])).toEqual([
        ['ops', ['fallbackChannel', 'quietHours.rerouteChannel', 'quietHours.windows.0']],
      ]);
      const { status, body } = await apply(t, document);
      expect(status).toBe(200);
      expect(body.channels!.updated).toEqual(['ops']);
      expect((await channels(t)).find((c) => c.name === 'Ops')!.quietHours).toMatchObject({
        windows: [night],
      });
    });

    it('still applies files exported before, which wrote the null ids', async () => {
      const old = structuredClone(document) as unknown as Doc;
      old.channels = old.channels.map((c) =>
        c.key === 'backup'
          ? { ...c, fallbackChannelId: null, quietHours: { windows: [], rerouteChannelId: null } }
          : c,
      );
      const { status, body } = await apply(t, old);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.channels!.unchanged.sort()).toEqual(['backup', 'ops']);
    });
  },
);

describe('validating channel references offline', () => {
  it('names an unknown fallback and an id where a key belongs', () => {
    const text = [
      'version: 1',
      'channels:',
      '  - key: ops',
      '    kind: webhook',
      '    name: Ops',
      '    config: { url: "https://ops.example.com/" }',
      '    fallbackChannel: nowhere',
      '',
    ].join('\n');
    expect(checkFiles([{ file: 'c.yaml', text }]).problems.map(printProblem)).toEqual([
      expect.stringMatching(/^c\.yaml:7:\d+: channels\.0\.fallbackChannel: No channel .*"nowhere"/),
    ]);
    const byId = text.replace('fallbackChannel: nowhere', 'fallbackChannelId: 4');
    expect(checkFiles([{ file: 'c.yaml', text: byId }]).problems.map(printProblem)).toEqual([
      expect.stringMatching(/channels\.0\.fallbackChannelId: Name the channel by its key/),
    ]);
  });
});
