import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkFiles, printProblem } from '../../src/config-as-code/check.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

type Kind = { created: string[]; updated: string[]; unchanged: string[]; detached: string[] };
type Report = Record<string, Kind>;
type Doc = { slos: Record<string, unknown>[] } & Record<string, unknown>;

const document = {
  version: 1,
  monitors: [
    { key: 'api', type: 'http', name: 'API', url: 'https://api.example.com/', tags: ['core'] },
    { key: 'web', type: 'http', name: 'Web', url: 'https://www.example.com/' },
    { key: 'all', type: 'group', name: 'Everything', members: ['api', 'web'] },
  ],
  statusPages: [
    {
      key: 'public',
      slug: 'public',
      title: 'Public',
      sections: [{ title: '', components: [{ monitor: 'web' }] }],
    },
  ],
  slos: [
    {
      key: 'api-availability',
      name: 'API availability',
      subject: { kind: 'monitor', monitor: 'api' },
      target: 99.9,
      window: 'month',
      timeZone: 'Europe/Berlin',
      countDegraded: true,
      latency: { percent: 95, thresholdMs: 300 },
    },
    { key: 'core', name: 'Core', subject: { kind: 'tag', tag: 'core' }, target: 99 },
    {
      key: 'everything',
      name: 'Everything',
      subject: { kind: 'monitor', monitor: 'all' },
      target: 99.5,
      alerts: false,
    },
    {
      key: 'public-web',
      name: 'Public web',
      subject: { kind: 'component', statusPage: 'public', monitor: 'web' },
      target: 99.95,
      window: '7d',
      excludeMaintenance: false,
    },
  ],
};

describe.each(engines)('SLOs in configuration files on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ engine });
  });
  afterAll(async () => t.stop());

  const apply = async (doc: unknown, extra: Record<string, unknown> = {}) => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/config/apply',
      payload: { document: doc, ...extra },
    });
    return { status: res.statusCode, body: res.json<Report>() };
  };
  const exported = async () => {
    const res = await t.inject('/api/v1/export?format=yaml');
    expect(res.statusCode, res.body).toBe(200);
    return { text: res.body, document: parse(res.body) as Doc };
  };
  const slos = async () =>
    (await t.inject('/api/v1/slos')).json<{
      items: { id: number; name: string; subjectLabel: string; target: number }[];
    }>().items;
  const sloId = async (key: string) =>
    (await t.inject('/api/v1/config/managed'))
      .json<{ slos: { id: number; key: string }[] }>()
      .slos.find((s) => s.key === key)!.id;

  it('creates SLOs on a monitor, a tag, a group and a status page component', async () => {
    const { status, body } = await apply(document);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.slos!.created.sort()).toEqual([
      'api-availability',
      'core',
      'everything',
      'public-web',
    ]);
    const labels = Object.fromEntries((await slos()).map((s) => [s.name, s.subjectLabel]));
    expect(labels).toEqual({
      'API availability': 'API',
      Core: 'tag: core',
      Everything: 'Everything',
      'Public web': 'Public / Web',
    });
    const one = (await t.inject(`/api/v1/slos/${await sloId('api-availability')}`)).json<
      Record<string, unknown>
    >();
    expect(one).toMatchObject({
      target: 99.9,
      window: 'month',
      timeZone: 'Europe/Berlin',
      countDegraded: true,
      excludeMaintenance: true,
      latency: { percent: 95, thresholdMs: 300 },
      alerts: true,
    });
  });

  it('exports them by key, and the export applies back unchanged with no drift', async () => {
    const { text, document: doc } = await exported();
    expect(doc.slos.find((s) => s.key === 'public-web')).toEqual({
      key: 'public-web',
      name: 'Public web',
      subject: { kind: 'component', statusPage: 'public', monitor: 'web' },
      target: 99.95,
      window: '7d',
      timeZone: 'UTC',
      countDegraded: false,
      excludeMaintenance: false,
      latency: null,
      alerts: true,
    });
    expect(checkFiles([{ file: 'export.yaml', text }]).problems).toEqual([]);
    const again = await apply(doc);
    expect(again.status).toBe(200);
    expect(again.body.slos!.unchanged).toHaveLength(4);
    expect(again.body.slos!.updated).toEqual([]);
    const plan = await t.inject({
      method: 'POST',
      url: '/api/v1/config/plan',
      payload: { document: doc },
    });
    const planned = plan.json<{ entries: { action: string }[]; drift: unknown[] }>();
    expect(planned.drift).toEqual([]);
    expect(new Set(planned.entries.map((e) => e.action))).toEqual(new Set(['unchanged']));
    expect((await exported()).text).toBe(text);
  });

  it('shows an SLO edited in the app as drift, and plans and applies it back', async () => {
    const id = await sloId('core');
    const put = await t.inject({
      method: 'PUT',
      url: `/api/v1/slos/${id}`,
      payload: { name: 'Core', subject: { kind: 'tag', tag: 'core' }, target: 98 },
    });
    expect(put.statusCode, put.body).toBe(200);
    const drift = (await t.inject('/api/v1/config/drift')).json<{
      drift: { kind: string; key: string; changes: { path: string; before: unknown }[] }[];
    }>().drift;
    expect(drift).toEqual([
      { kind: 'slos', key: 'core', changes: [{ path: 'target', before: 99, after: 98 }] },
    ]);
    const plan = await t.inject({
      method: 'POST',
      url: '/api/v1/config/plan',
      payload: { document },
    });
    const entry = plan
      .json<{ entries: { kind: string; key: string; action: string; changes: unknown[] }[] }>()
      .entries.find((e) => e.kind === 'slos' && e.key === 'core');
    expect(entry).toEqual({
      kind: 'slos',
      key: 'core',
      action: 'update',
      changes: [{ path: 'target', before: 98, after: 99 }],
    });
    const { status, body } = await apply(document);
    expect(status).toBe(200);
    expect(body.slos!.updated).toEqual(['core']);
    expect((await slos()).find((s) => s.name === 'Core')!.target).toBe(99);
  });

  it('refuses a component the page does not show, at the entry’s path, writing nothing', async () => {
    const broken = structuredClone(document) as { slos: Record<string, unknown>[] };
    broken.slos.push({
      key: 'api-public',
      name: 'API on the page',
      subject: { kind: 'component', statusPage: 'public', monitor: 'api' },
      target: 99,
    });
    const { status, body } = await apply(broken);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('document.slos.4.subject.monitor');
    expect(JSON.stringify(body)).toContain('does not show the monitor');
    expect(await slos()).toHaveLength(4);
  });

  it('detaches an SLO the files dropped, and deletes it with prune', async () => {
    const fewer = { ...document, slos: document.slos.filter((s) => s.key !== 'everything') };
    const detached = await apply(fewer);
    expect(detached.body.slos!.detached).toEqual(['everything']);
    expect(await slos()).toHaveLength(4);
    const managed = (await t.inject('/api/v1/config/managed')).json<{ slos: { key: string }[] }>();
    expect(managed.slos.map((s) => s.key)).not.toContain('everything');
    // Taken back, then pruned.
    expect((await apply(document)).status).toBe(200);
    const pruned = await apply(fewer, { prune: true });
    expect(pruned.body.slos!).toMatchObject({ deleted: ['everything'] });
    expect((await slos()).map((s) => s.name)).not.toContain('Everything');
  });
});

describe('validating SLOs in files offline', () => {
  it('names the file and line of an unknown monitor, page and a bad target', () => {
    const text = [
      'version: 1',
      'monitors:',
      '  - { key: api, type: http, name: API, url: "https://api.example.com/" }',
      'slos:',
      '  - key: a',
      '    name: A',
      '    subject: { kind: monitor, monitor: nope }',
      '    target: 99',
      '  - key: b',
      '    name: B',
      '    subject: { kind: component, statusPage: missing, monitor: api }',
      '    target: 100',
      '',
    ].join('\n');
    const out = checkFiles([{ file: 'slos.yaml', text }]).problems.map(printProblem);
    expect(out).toEqual([expect.stringMatching(/^slos\.yaml:12:\d+: slos\.1\.target: Below 100/)]);
    const fixed = text.replace('target: 100', 'target: 99.9');
    expect(checkFiles([{ file: 'slos.yaml', text: fixed }]).problems.map(printProblem)).toEqual([
      expect.stringMatching(/^slos\.yaml:7:\d+: slos\.0\.subject\.monitor: No monitor .*"nope"/),
      expect.stringMatching(/^slos\.yaml:11:\d+: slos\.1\.subject\.statusPage: No status page/),
    ]);
  });
});
