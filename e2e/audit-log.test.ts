import { auditActionWording } from '@pagewatch/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../server/src/db/repositories/index.js';
import { startTestApp, type Identity, type TestApp } from '../server/test/support/app.js';
import { maintenanceInput, monitorInput } from '../server/test/support/factories.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** Settings → Audit log answers "who changed X" (issue 17): person, action or area, days. */
describe('the audit log filters in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let bob: Identity;

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    bob = await app.identity('editor', 'bob@example.com');
    const send = (method: 'POST', url: string, payload: object, headers?: Identity['headers']) =>
      app.inject({ method, url, payload, ...(headers ? { headers } : {}) });
    const api = (
      await send('POST', '/api/v1/monitors', monitorInput({ name: 'API' }), bob.headers)
    ).json<{ id: number }>().id;
    await app.inject({
      method: 'POST',
      url: `/api/v1/monitors/${api}/pause`,
      headers: bob.headers,
    });
    await send('POST', '/api/v1/status-pages', { title: 'Acme status', slug: 'acme' });
    await send('POST', '/api/v1/maintenance', maintenanceInput({ title: 'Patching' }));
    await send('POST', '/api/v1/notification-channels', {
      kind: 'webhook',
      name: 'Ops hook',
      config: { url: 'http://127.0.0.1:9/hook' },
    });
    // Two older changes of Bob's, at noon UTC so the day is the same in any nearby zone.
    for (const [at, summary] of [
      ['2021-03-10T12:00:00Z', 'Changed in March'],
      ['2021-04-20T12:00:00Z', 'Changed in April'],
    ] as const) {
      await repositories(app.database).audit.insert({
        at: Date.parse(at),
        actor: { type: 'user', id: bob.userId, label: 'Bob' },
        action: 'monitor.updated',
        target: { type: 'monitor', id: String(api) },
        ip: null,
        summary,
      });
    }
    browser = await launchBrowser();
    let context;
    ({ context, page } = await newPage(browser));
    await signIn(context, app.url, app.owner.email, app.owner.password);
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const rows = () => page.getByTestId('audit-row');
  const texts = async () =>
    (await rows().locator('.auditlog__what').allInnerTexts()).map((t) => t.trim());
  const settle = async (expected: number) =>
    expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(expected);

  it('says in words who did what, and offers every action the server writes', async () => {
    await page.goto(`${app.url}/settings/audit`);
    await rows().first().waitFor();
    expect(await texts()).toContain('API key “editor key” paused monitor “API”');
    expect(await texts()).toContain('API key “owner key” created status page “Acme status”');
    const values = await page
      .getByLabel('Action', { exact: true })
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    for (const action of Object.keys(auditActionWording)) expect(values).toContain(action);
    for (const area of ['status_page.*', 'maintenance.*', 'notification_channel.*']) {
      expect(values).toContain(area);
    }
  });

  it('narrows to one person, then to an area, and keeps the filters in the address', async () => {
    await page.getByLabel('Person', { exact: true }).selectOption(String(bob.userId));
    await settle(4);
    expect(await texts()).toEqual([
      'Bob changed monitor “API”',
      'Bob changed monitor “API”',
      'API key “editor key” paused monitor “API”',
      'API key “editor key” created monitor “API”',
    ]);
    await page.getByLabel('Action', { exact: true }).selectOption('monitor.paused');
    const paused = ['API key “editor key” paused monitor “API”'];
    await expect.poll(texts, { timeout: 10_000 }).toEqual(paused);
    await page.reload();
    expect(page.url()).toContain(`person=${bob.userId}`);
    await expect.poll(texts, { timeout: 10_000 }).toEqual(paused);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    for (const [area, line] of [
      ['status_page.*', 'API key “owner key” created status page “Acme status”'],
      ['maintenance.*', 'API key “owner key” scheduled maintenance window “Patching”'],
      ['notification_channel.*', 'API key “owner key” created channel “Ops hook”'],
    ] as const) {
      await page.getByLabel('Action', { exact: true }).selectOption(area);
      await expect.poll(texts, { timeout: 10_000 }).toEqual([line]);
    }
  });

  it('narrows to a range of days, both ends included', async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('From', { exact: true }).fill('2021-03-01');
    await page.getByLabel('To', { exact: true }).fill('2021-03-10');
    await expect
      .poll(() => rows().locator('.auditlog__summary').allInnerTexts(), { timeout: 10_000 })
      .toEqual(['Changed in March']);
    await page.getByLabel('To', { exact: true }).fill('2021-04-20');
    await settle(2);
    await page.getByLabel('From', { exact: true }).fill('2021-04-21');
    await page.getByRole('heading', { name: 'Nothing recorded' }).waitFor();
    await page.getByLabel('To', { exact: true }).fill('');
    await page.getByLabel('Person', { exact: true }).selectOption(String(bob.userId));
    await settle(2);
    await screenshotAll(page, 'audit-log-filtered');
    expect(errors).toEqual([]);
  });
});
