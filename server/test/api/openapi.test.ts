import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PublicStatusPage } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answers415 } from '../../src/http/openapi/components.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { monitorInput } from '../support/factories.js';
import { json, slugOf } from '../support/status-page-api.js';
import type { PublicStatusPage as PublicView } from '../../src/status-pages/view-model.js';

// The documented JSON of a status page is the view model it is rendered from: tsc fails if they part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const documentedView: Same<PublicStatusPage, PublicView> = true;

const root = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/**
 * Registered routes the document leaves out on purpose: pages and files for people, not API.
 * Everything else Fastify serves under these prefixes must be described.
 */
const UNDOCUMENTED = new Set([
  'GET /status/assets/enhance.js', // the status pages' optional script
  'GET /api/docs', // the interactive reference (HTML) that reads this document
  'GET /api/docs/standalone.js', // its bundled script
]);
const PREFIXES = ['/api/', '/status/', '/badge/', '/healthz', '/readyz', '/metrics'];

const operations = (doc: Json) =>
  Object.entries(doc.paths as Json).flatMap(([p, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ method, path: p, op: op as Json })),
  );

/** A validator of a component, its refs resolved against the document's schemas. */
function validator(doc: Json, schema: Json): z.ZodType {
  const local = (v: unknown): Json =>
    JSON.parse(JSON.stringify(v).replaceAll('#/components/schemas/', '#/$defs/')) as Json;
  // Only the components `schema` reaches: converting the whole document for each of the
  // hundreds of defaults checked made this file slower than its time limit.
  const all = doc.components.schemas as Json;
  const defs: Json = {};
  const pending = [schema];
  while (pending.length > 0) {
    const text = JSON.stringify(pending.pop());
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (name && !(name in defs) && name in all) {
        defs[name] = all[name];
        pending.push(all[name]);
      }
    }
  }
  return z.fromJSONSchema({ ...local(schema), $defs: local(defs) });
}

/** The schema an operation declares for a status and media type. */
function declared(doc: Json, method: string, p: string, status: number, type: string): Json {
  let response = doc.paths[p]?.[method]?.responses?.[status];
  expect(response, `${method.toUpperCase()} ${p} declares ${status}`).toBeTruthy();
  if (response.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
  const schema = response.content?.[type]?.schema;
  expect(schema, `${method.toUpperCase()} ${p} ${status} has ${type}`).toBeTruthy();
  return schema;
}

describe('The OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite' });
    doc = (await t.inject({ url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t?.stop());

  it('passes Redocly’s recommended rules with no errors', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    // Exit status 1 means problems were found; the JSON report on stdout says which.
    const { stdout } = await run(
      path.join(root, 'node_modules/.bin/redocly'),
      [
        'lint',
        '--config',
        path.join(root, 'redocly.yaml'),
        '--format=json',
        '--max-problems=1000',
        file,
      ],
      {
        cwd: root,
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    fs.rmSync(dir, { recursive: true });
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: {
        ruleId: string;
        severity: string;
        message: string;
        location: { pointer: string }[];
      }[];
    };
    const found = report.problems.map(
      (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`,
    );
    console.info(
      `redocly lint: ${report.totals.errors} errors, ${report.totals.warnings} warnings\n${found.join('\n')}`,
    );
    expect(found.filter((f) => f.startsWith('error'))).toEqual([]);
    // The one warning allowed: operations that cannot answer any 4xx (health, the documents
    // themselves, what the login page offers).
    for (const p of report.problems) {
      expect(p.ruleId).toBe('operation-4xx-response');
      expect(p.location[0]?.pointer).toMatch(
        /~1(healthz|readyz|api~1v1~1openapi\.json|api~1v1~1config~1schema\.json|api~1v1~1auth~1status|api~1v1~1auth~1sign-in-options)\//,
      );
    }
  });

  it('names every operation once, in camelCase, with a listed tag, a summary and a security rule', () => {
    const ids = operations(doc).map(({ op }) => op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]+$/);
    expect(ids).toEqual(
      expect.arrayContaining(['listMonitors', 'getMonitor', 'createMonitor', 'checkMonitorNow']),
    );
    const tagNames = (doc.tags as { name: string; description: string }[]).map((tag) => tag.name);
    for (const { method, path: p, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      expect(op.tags.length, where).toBe(1);
      expect(tagNames, where).toContain(op.tags[0]);
      expect(op.summary, where).toBeTruthy();
      expect(Array.isArray(op.security), where).toBe(true);
      expect(op['x-access'], where).toMatch(/^(public|viewer|editor|admin|owner)$/);
      for (const [status, r] of Object.entries(op.responses as Json))
        expect(r.$ref ?? r.description, `${where} ${status}`).toBeTruthy();
    }
  });

  it('asks an API key or a session for signed-in operations, and the CSRF header with the session only when state changes', () => {
    const schemes = doc.components.securitySchemes;
    expect(schemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'pw_…' });
    expect(schemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'pw_session' });
    expect(schemes.csrf).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token' });
    expect(doc.paths['/api/v1/monitors'].get.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api/v1/monitors'].post.security).toEqual([
      { apiKey: [] },
      { session: [], csrf: [] },
    ]);
    expect(doc.paths['/api/v1/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/push/{token}'].get.security).toEqual([]);
    expect(doc.paths['/metrics'].get.security).toEqual([
      {},
      { metricsBearer: [] },
      { metricsBasic: [] },
    ]);
  });

  it('lists the problems each operation answers, as application/problem+json', () => {
    const unsupported = answers415 ? ['415'] : [];
    const statuses = (method: string, p: string) =>
      Object.keys(doc.paths[p][method].responses).filter((s) => s !== 'default');
    expect(statuses('get', '/api/v1/monitors')).toEqual(['200', '401']);
    expect(statuses('put', '/api/v1/monitors/{id}')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      ...(answers415 ? ['415'] : []),
    ]);
    expect(statuses('post', '/api/v1/monitors/{id}/check-now')).toEqual([
      '202',
      '401',
      '403',
      '404',
      '409',
    ]);
    expect(statuses('post', '/api/v1/auth/login')).toEqual([
      '200',
      '400',
      '401',
      '413',
      ...unsupported,
      '429',
    ]);
    expect(statuses('post', '/api/push/{token}')).toEqual([
      '200',
      '400',
      '404',
      '409',
      '413',
      '429',
    ]);
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toBeTruthy();
    for (const response of Object.values(doc.components.responses as Json))
      expect(response.content['application/problem+json'].schema).toEqual({
        $ref: '#/components/schemas/Problem',
      });
  });

  it('describes every route Fastify serves under the API and public prefixes, and no other', () => {
    const served = t.app.pagewatchRoutes
      .filter((r) => r.method !== 'HEAD' && PREFIXES.some((p) => r.url.startsWith(p)))
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    const described = operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    const missing = served.filter((r) => {
      if (UNDOCUMENTED.has(r)) return false;
      // `/status/{slug}/*` serves the page's sub-routes, each described on its own.
      if (r.endsWith('/*')) return !described.some((d) => d.startsWith(r.slice(0, -1)));
      return !described.includes(r);
    });
    expect(missing).toEqual([]);
    const phantom = described.filter(
      (d) =>
        !served.includes(d) &&
        !served.some((r) => r.endsWith('/*') && d.startsWith(r.slice(0, -1))),
    );
    expect(phantom).toEqual([]);
  });

  it('documents the public status page JSON as its view model', () => {
    expect(documentedView).toBe(true);
    expect(doc.components.schemas.PublicStatusPage.required).toContain('sections');
  });

  it('never requires a request field that has a default, and every default fits its schema', () => {
    const bad: string[] = [];
    const visit = (node: unknown, where: string, input: boolean) => {
      if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}/${i}`, input));
      if (!node || typeof node !== 'object') return;
      const n = node as Json;
      if (input && n.properties && Array.isArray(n.required)) {
        for (const key of n.required as string[])
          if (n.properties[key] && 'default' in n.properties[key])
            bad.push(`${where}: ${key} has a default but is required`);
      }
      if ('default' in n) {
        const { default: value, ...schema } = n;
        if (!validator(doc, schema).safeParse(value).success)
          bad.push(`${where}: default ${JSON.stringify(value)} does not fit`);
      }
      for (const [k, v] of Object.entries(n)) if (k !== 'default') visit(v, `${where}/${k}`, input);
    };
    const bodies = new Set<string>();
    for (const { op } of operations(doc))
      for (const media of Object.values<Json>(op.requestBody?.content ?? {}))
        if (media.schema?.$ref) bodies.add(media.schema.$ref.split('/').pop());
    for (const [name, schema] of Object.entries(doc.components.schemas as Json))
      visit(schema, name, bodies.has(name) || name.endsWith('Input'));
    expect(bodies).toContain('MonitorInput');
    expect(bad).toEqual([]);
  });

  it('declares the answers the server really gives: monitors, problems and a public page', async () => {
    const created = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json(monitorInput()),
    });
    expect(created.statusCode).toBe(201);
    const fits = (
      method: string,
      p: string,
      status: number,
      body: unknown,
      type = 'application/json',
    ) => {
      const result = validator(doc, declared(doc, method, p, status, type)).safeParse(body);
      expect(result.error?.issues ?? [], `${method.toUpperCase()} ${p} ${status}`).toEqual([]);
    };
    fits('post', '/api/v1/monitors', 201, created.json());
    const list = await t.inject({ url: '/api/v1/monitors' });
    expect(list.json().items.length).toBeGreaterThan(0);
    fits('get', '/api/v1/monitors', 200, list.json());
    // The validator is a real one: a monitor without its fields does not fit.
    const listSchema = validator(
      doc,
      declared(doc, 'get', '/api/v1/monitors', 200, 'application/json'),
    );
    expect(listSchema.safeParse({ ...list.json<Json>(), items: [{ id: 1 }] }).success).toBe(false);
    const one = await t.inject({ url: `/api/v1/monitors/${created.json().id}` });
    fits('get', '/api/v1/monitors/{id}', 200, one.json());
    const checks = await t.inject({ url: `/api/v1/monitors/${created.json().id}/checks` });
    fits('get', '/api/v1/monitors/{id}/checks', 200, checks.json());

    const missing = await t.inject({ url: '/api/v1/monitors/999999' });
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    fits('get', '/api/v1/monitors/{id}', 404, missing.json(), 'application/problem+json');
    const invalid = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json({ type: 'http' }),
    });
    fits('post', '/api/v1/monitors', 400, invalid.json(), 'application/problem+json');
    // A body of another media type is a 400 here (no 415), as the document says.
    const wrongType = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    fits(
      'post',
      '/api/v1/monitors',
      wrongType.statusCode,
      wrongType.json(),
      'application/problem+json',
    );

    const slug = slugOf();
    const page = await t.inject({
      method: 'POST',
      url: '/api/v1/status-pages',
      ...json({
        title: 'Acme',
        slug,
        published: true,
        sections: [{ title: 'Web', components: [{ monitorId: created.json().id }] }],
      }),
    });
    expect(page.statusCode, page.body).toBe(201);
    fits('post', '/api/v1/status-pages', 201, page.json());
    const view = await t.inject({ url: `/status/${slug}/index.json` });
    expect(view.headers['access-control-allow-origin']).toBe('*');
    fits('get', '/status/{slug}/index.json', 200, view.json());
  });
});
