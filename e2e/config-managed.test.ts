import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

const document = {
  version: 1,
  channels: [
    {
      key: 'ops-hook',
      kind: 'webhook',
      name: 'Ops hook',
      config: { url: 'https://hooks.example.com/x' },
    },
  ],
  monitors: [
    {
      key: 'shop',
      type: 'http',
      name: 'Shop',
      url: 'https://shop.example.com/',
      tags: ['prod'],
      paused: true,
      channels: ['ops-hook'],
    },
  ],
  maintenance: [
    {
      key: 'db-upgrade',
      title: 'Database upgrade',
      timezone: 'UTC',
      scope: { kind: 'monitors', monitors: ['shop'] },
      schedule: { kind: 'once', startsAt: '2030-01-01T02:00:00Z', endsAt: '2030-01-01T03:00:00Z' },
    },
  ],
  statusPages: [
    {
      key: 'status',
      slug: 'status',
      title: 'Example status',
      sections: [{ title: 'Services', components: [{ monitor: 'shop' }] }],
    },
  ],
  slos: [
    {
      key: 'shop-availability',
      name: 'Shop availability',
      subject: { kind: 'monitor', monitor: 'shop' },
      target: 99.9,
    },
  ],
};

/** The status page editor's preview is a sandboxed srcdoc frame that blocks its own styles. */
const own = (errors: string[]) =>
  errors.filter((e) => !/srcdoc|directive 'style-src 'self''/.test(e));

/** A resource applied from files is read-only in the UI, until an admin detaches it. */
describe('managed by config, in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let page: Page;
  let errors: string[];
  let ids: { monitor: number; channel: number; page: number };

  beforeAll(async () => {
    app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
    const applied = await app.inject({
      method: 'POST',
      url: '/api/v1/config/apply',
      payload: { document },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const managed = (await app.inject('/api/v1/config/managed')).json<
      Record<'monitors' | 'channels' | 'statusPages', { id: number }[]>
    >();
    ids = {
      monitor: managed.monitors[0]?.id ?? 0,
      channel: managed.channels[0]?.id ?? 0,
      page: managed.statusPages[0]?.id ?? 0,
    };
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

  it('shows what was changed here since the last apply, on the resource and in Settings → Export', async () => {
    const resumed = await app.inject({
      method: 'POST',
      url: `/api/v1/monitors/${ids.monitor}/resume`,
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    await page.goto(`${app.url}/monitors/${ids.monitor}/edit`);
    const drift = page.getByTestId('managed-drift');
    await drift.waitFor();
    expect(await drift.textContent()).toMatch(/paused: true → false/);
    await page.goto(`${app.url}/settings/export`);
    const list = page.getByTestId('drift-now');
    await list.waitFor();
    expect(await list.textContent()).toMatch(/1 managed resource was changed/);
    expect(await list.textContent()).toMatch(/Monitor\s*shop/);
    await screenshotAll(page, 'config-drift-export');
    // Back as the files say, for the tests below.
    await app.inject({ method: 'POST', url: `/api/v1/monitors/${ids.monitor}/pause` });
    expect(errors).toEqual([]);
  });

  it('shows the monitor’s form read-only under the notice, then editable once detached', async () => {
    await page.goto(`${app.url}/monitors/${ids.monitor}/edit`);
    await page.getByText('Managed by config').waitFor();
    await page.getByText('under the key shop').waitFor();
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.isDisabled()).toBe(true);
    await screenshotAll(page, 'config-managed-monitor');

    await page.getByRole('button', { name: 'Detach from config' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Detach' }).click();
    await page.getByText('Managed by config').waitFor({ state: 'detached' });
    expect(await name.isDisabled()).toBe(false);
    const after = (await app.inject('/api/v1/config/managed')).json<{ monitors: unknown[] }>();
    expect(after.monitors).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the channel’s and the status page’s forms read-only too', async () => {
    await page.goto(`${app.url}/notifications/${ids.channel}`);
    await page.getByText('Managed by config').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await page.goto(`${app.url}/status-pages/${ids.page}/edit`);
    await page.getByText('Managed by config').waitFor();
    await screenshotAll(page, 'config-managed-status-page');
    expect(own(errors)).toEqual([]);
  });

  it('shows a maintenance window’s form read-only too', async () => {
    await page.goto(`${app.url}/maintenance`);
    await page.getByRole('button', { name: 'Edit Database upgrade' }).click();
    await page.getByText('Managed by config').waitFor();
    expect(await page.getByLabel('Title', { exact: true }).isDisabled()).toBe(true);
    await screenshotAll(page, 'config-managed-maintenance');
    expect(own(errors)).toEqual([]);
  });

  it('shows an SLO’s form read-only too (ADR 74)', async () => {
    await page.goto(`${app.url}/slos`);
    const item = page.getByRole('listitem', { name: 'Shop availability' });
    await item.getByRole('button', { name: 'Edit' }).click();
    await page.getByText('Managed by config').waitFor();
    await page.getByText('under the key shop-availability').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
    await screenshotAll(page, 'config-managed-slo');
    // The form's own Cancel is read-only with the rest; Close leaves it.
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByText('Managed by config').count()).toBe(0);
    expect(own(errors)).toEqual([]);
  });
});
