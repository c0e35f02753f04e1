import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkFiles, printProblem } from '../../src/config-as-code/check.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

type Report = Record<string, { created: string[]; updated: string[]; unchanged: string[] }>;

describe.each(engines)(
  'a monitor’s locations and quorum in configuration files on %s',
  (engine) => {
    let t: TestApp;
    let eu: string;
    let us: string;
    beforeAll(async () => {
      t = await startTestApp({ engine });
      const made = async (name: string) => {
        const res = await t.inject({ method: 'POST', url: '/api/v1/locations', payload: { name } });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ id: string }>().id;
      };
      eu = await made('EU West');
      us = await made('US East');
    });
    afterAll(async () => t.stop());

    const apply = async (document: unknown) => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/config/apply',
        payload: { document },
      });
      return { status: res.statusCode, body: res.json<Report>() };
    };
    const idOf = async (key: string) => {
      const managed = (await t.inject('/api/v1/config/managed')).json<{
        monitors: { id: number; key: string }[];
      }>().monitors;
      return managed.find((m) => m.key === key)!.id;
    };
    const placement = async (key: string) => {
      const res = await t.inject(`/api/v1/monitors/${await idOf(key)}/locations`);
      const body = res.json<{ locations: { id: string }[]; quorum: number | null }>();
      return { locations: body.locations.map((l) => l.id).sort(), quorum: body.quorum };
    };
    const exported = async () => {
      const res = await t.inject('/api/v1/export?format=yaml');
      expect(res.statusCode, res.body).toBe(200);
      return {
        text: res.body,
        document: parse(res.body) as { monitors: Record<string, unknown>[] },
      };
    };

    it('applies locations and k, and leaves a monitor without them at local only', async () => {
      const { status, body } = await apply({
        version: 1,
        monitors: [
          {
            key: 'api',
            type: 'http',
            name: 'API',
            url: 'https://api.example.com/health',
            locations: [us, 'local', eu],
            quorum: 2,
          },
          { key: 'web', type: 'http', name: 'Web', url: 'https://www.example.com/' },
        ],
      });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.monitors!.created).toEqual(['api', 'web']);
      expect(await placement('api')).toEqual({ locations: [eu, 'local', us].sort(), quorum: 2 });
      expect(await placement('web')).toEqual({ locations: ['local'], quorum: null });
    });

    it('exports them (only where not the default), and the export applies back unchanged', async () => {
      const { text, document } = await exported();
      const api = document.monitors.find((m) => m.key === 'api')!;
      const web = document.monitors.find((m) => m.key === 'web')!;
      expect(api.locations).toEqual([eu, 'local', us].sort());
      expect(api.quorum).toBe(2);
      expect(web).not.toHaveProperty('locations');
      expect(web).not.toHaveProperty('quorum');
      // The export is a valid file offline too.
      expect(checkFiles([{ file: 'export.yaml', text }]).problems).toEqual([]);
      const again = await apply(document);
      expect(again.status).toBe(200);
      expect(again.body.monitors!.updated).toEqual([]);
      expect(again.body.monitors!.unchanged.sort()).toEqual(['api', 'web']);
      const plan = await t.inject({
        method: 'POST',
        url: '/api/v1/config/plan',
        payload: { document },
      });
      expect(plan.statusCode, plan.body).toBe(200);
      const planned = plan.json<{ entries: { action: string }[]; drift: unknown[] }>();
      expect(planned.drift).toEqual([]);
      expect(new Set(planned.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
      expect((await exported()).text).toBe(text);
    });

    it('shows a change made in the app as drift, and the files put it back', async () => {
      const id = await idOf('api');
      const put = await t.inject({
        method: 'PUT',
        url: `/api/v1/monitors/${id}/locations`,
        payload: { locations: ['local', eu], quorum: null },
      });
      expect(put.statusCode, put.body).toBe(200);
      const drift = (await t.inject('/api/v1/config/drift')).json<{
        drift: { key: string; changes: { path: string }[] }[];
      }>().drift;
      expect(drift.map((d) => [d.key, d.changes.map((c) => c.path).sort()])).toEqual([
        ['api', ['locations', 'quorum']],
      ]);
      const { document } = await exported();
      document.monitors.find((m) => m.key === 'api')!.locations = [eu, us];
      document.monitors.find((m) => m.key === 'api')!.quorum = 1;
      const { status, body } = await apply(document);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.monitors!.updated).toEqual(['api']);
      expect(await placement('api')).toEqual({ locations: [eu, us].sort(), quorum: 1 });
      // A change of locations alone is no monitor update: its settings' audit line is not written.
      const audit = (await t.inject('/api/v1/audit')).json<{ items: { summary: string }[] }>()
        .items;
      const api = audit.filter((e) => e.summary.startsWith('Updated "API"'));
      expect(api[0]?.summary).toMatch(/checked from "EU West", "US East", down when 1 fail/);
      expect(api.every((e) => e.summary.includes('checked from'))).toBe(true);
    });

    it('refuses an unknown location at the entry’s path, writing nothing', async () => {
      const { status, body } = await apply({
        version: 1,
        monitors: [
          { key: 'web', type: 'http', name: 'Web', url: 'https://www.example.com/' },
          {
            key: 'new',
            type: 'http',
            name: 'New',
            url: 'https://new.example.com/',
            locations: ['mars'],
          },
        ],
      });
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain('document.monitors.1.locations');
      expect(JSON.stringify(body)).toContain('No location has id mars');
      const managed = (await t.inject('/api/v1/config/managed')).json<{
        monitors: { key: string }[];
      }>().monitors;
      expect(managed.map((m) => m.key)).not.toContain('new');
    });
  },
);

describe('validating locations in files offline', () => {
  it('names the file and line of a quorum above the locations chosen and a repeated location', () => {
    const text = [
      'version: 1',
      'monitors:',
      '  - key: api',
      '    type: http',
      '    name: API',
      '    url: https://api.example.com/',
      '    locations: [local, eu-west]',
      '    quorum: 3',
      '  - key: web',
      '    type: http',
      '    name: Web',
      '    url: https://www.example.com/',
      '    locations: [local, local]',
      '',
    ].join('\n');
    const out = checkFiles([{ file: 'monitors.yaml', text }]).problems.map(printProblem);
    expect(out).toEqual([
      expect.stringMatching(/^monitors\.yaml:8:\d+: monitors\.0\.quorum: At most 2/),
      expect.stringMatching(/^monitors\.yaml:13:\d+: monitors\.1\.locations: .*only once/),
    ]);
  });
});
