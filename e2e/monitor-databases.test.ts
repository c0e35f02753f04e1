import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { startOwnRedis } from '../server/test/fixtures/database-peers.js';
import { refusedPort } from '../server/test/fixtures/target-server.js';
import { launchBrowser, screenshotPath, signIn, webDist } from './support/browser.js';

const postgresUrl = process.env.PAGEWATCH_TEST_POSTGRES_URL
  ? new URL(process.env.PAGEWATCH_TEST_POSTGRES_URL)
  : null;
const mysqlUrl = process.env.PAGEWATCH_TEST_MYSQL_URL
  ? new URL(process.env.PAGEWATCH_TEST_MYSQL_URL)
  : null;

/**
 * One monitor of each database type made in the form: PostgreSQL and MySQL against the real
 * servers when named (else a refused port, so they are down), Redis against a redis-server the
 * test starts with a password (the form's password must reach the check), MongoDB against a
 * refused port (there is no MongoDB server here), each ending with the status it should.
 */
describe('database monitors from the form', () => {
  let browser: Browser;
  let app: TestApp;
  let redis: Awaited<ReturnType<typeof startOwnRedis>>;
  let nobody: number;
  const errors: string[] = [];

  async function newPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    return page;
  }

  beforeAll(async () => {
    redis = await startOwnRedis('form-redis-pw');
    nobody = await refusedPort();
    app = await startTestApp({ engine: 'sqlite', scheduler: true, listen: true, webDist });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await redis?.close();
  });

  interface Made {
    label: string;
    name: string;
    host: string;
    port: number;
    database?: string;
    user?: string;
    password?: string;
    query?: [string, string];
    expected?: string;
    status: 'up' | 'down';
    target: string;
  }

  async function create(page: Page, m: Made, shot: string): Promise<void> {
    await page.goto(`${app.url}/monitors/new`);
    await page.getByRole('heading', { name: 'New monitor' }).waitFor();
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: m.label, exact: true })
      .click();
    await page.getByLabel('Name', { exact: true }).fill(m.name);
    await page.getByLabel('Host', { exact: true }).fill(m.host);
    await page.getByLabel('Port', { exact: true }).fill(String(m.port));
    if (m.database !== undefined) await page.getByLabel(/^Database/).fill(m.database);
    if (m.user !== undefined) await page.getByLabel(/^User name/).fill(m.user);
    if (m.password !== undefined) await page.getByLabel(/^Password/).fill(m.password);
    if (m.query) await page.getByLabel(new RegExp(`^${m.query[0]}`)).fill(m.query[1]);
    if (m.expected !== undefined) {
      await page.getByLabel(/^Expected first value/).fill(m.expected);
    }
    await page.getByLabel('Interval (seconds)').fill('10');
    await page.getByLabel('Timeout (seconds)').fill('3');
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath(shot), fullPage: true });
    await page.getByRole('button', { name: 'Create monitor' }).click();
    await page.waitForURL(/\/monitors\/\d+$/);
    await page.getByRole('heading', { name: m.name }).waitFor();
    await page.getByText(m.target).first().waitFor();
  }

  it('creates PostgreSQL, MySQL, Redis and MongoDB monitors that check their servers', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);

    // The inline rule for Redis: only read commands.
    await page.goto(`${app.url}/monitors/new`);
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'Redis', exact: true })
      .click();
    const command = page.getByLabel(/^Command/);
    await command.fill('FLUSHALL');
    await command.blur();
    await page.getByText(/Only read commands can be run/).waitFor();

    const redisPort = redis?.port ?? nobody;
    const made: Made[] = [
      {
        label: 'PostgreSQL',
        name: 'Orders database',
        host: postgresUrl?.hostname ?? '127.0.0.1',
        port: Number(postgresUrl?.port || (postgresUrl ? 5432 : nobody)),
        database: postgresUrl ? postgresUrl.pathname.slice(1) : 'app',
        user: postgresUrl ? decodeURIComponent(postgresUrl.username) || 'postgres' : 'monitor',
        query: ['Query', "SELECT current_setting('transaction_read_only')"],
        expected: 'on',
        status: postgresUrl ? 'up' : 'down',
        target: `${postgresUrl?.hostname ?? '127.0.0.1'}:${postgresUrl?.port || (postgresUrl ? 5432 : nobody)}`,
      },
      {
        label: 'MySQL',
        name: 'Shop database',
        host: mysqlUrl?.hostname ?? '127.0.0.1',
        port: Number(mysqlUrl?.port || (mysqlUrl ? 3306 : nobody)),
        user: mysqlUrl ? decodeURIComponent(mysqlUrl.username) || 'root' : 'monitor',
        query: ['Query', 'SELECT 40 + 2'],
        expected: '42',
        status: mysqlUrl ? 'up' : 'down',
        target: `${mysqlUrl?.hostname ?? '127.0.0.1'}:${mysqlUrl?.port || (mysqlUrl ? 3306 : nobody)}`,
      },
      {
        label: 'Redis',
        name: 'Session cache',
        host: '127.0.0.1',
        port: redisPort,
        password: 'form-redis-pw',
        query: ['Command', 'ECHO "all good"'],
        expected: 'all good',
        status: redis ? 'up' : 'down',
        target: `127.0.0.1:${redisPort}`,
      },
      {
        label: 'MongoDB',
        name: 'Catalogue',
        host: '127.0.0.1',
        port: nobody,
        status: 'down',
        target: `127.0.0.1:${nobody}/admin`,
      },
    ];
    for (const m of made) await create(page, m, `monitor-${m.label.toLowerCase()}-form`);
    await page.screenshot({ path: screenshotPath('monitor-mongodb-page'), fullPage: true });

    await page.goto(`${app.url}/`);
    for (const m of made) {
      const row = page.getByTestId('monitor-row').filter({ hasText: m.name });
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe(m.status);
    }
    await page.screenshot({ path: screenshotPath('dashboard-databases'), fullPage: true });

    // The saved password is never shown again; the form says it is kept.
    await page
      .getByTestId('monitor-row')
      .filter({ hasText: 'Session cache' })
      .getByRole('link')
      .first()
      .click();
    await page.getByText('password saved').first().waitFor();
    await page.screenshot({ path: screenshotPath('monitor-redis-page'), fullPage: true });
    await page.getByRole('link', { name: /edit/i }).first().click();
    await page.getByRole('heading', { name: 'Edit monitor' }).waitFor();
    expect(await page.getByLabel(/^Password/).inputValue()).toBe('');
    await page.getByText('Saved — leave empty to keep the saved password.').waitFor();
    expect(await page.content()).not.toContain('form-redis-pw');
    await context.close();
  });

  // Light is screenshotted by the other two tests (desktop and phone).
  it('reads in dark, on a desktop and a phone', async () => {
    const sizes = [
      ['desktop', { width: 1280, height: 800 }, false],
      ['phone', { width: 390, height: 844 }, true],
    ] as const;
    for (const [size, viewport, phone] of sizes) {
      for (const colorScheme of ['dark'] as const) {
        const context = await browser.newContext({
          viewport,
          colorScheme,
          isMobile: phone,
          hasTouch: phone,
        });
        await signIn(context, app.url, app.owner.email, app.owner.password);
        const page = await newPage(context);
        await page.goto(`${app.url}/monitors/new`);
        await page
          .getByRole('radiogroup', { name: 'Monitor type' })
          .getByRole('radio', { name: 'Redis', exact: true })
          .click();
        await page.getByLabel('Connect over TLS').check();
        await page.getByLabel(/Accept certificates from any issuer/).check();
        await page.getByText('Who issued the certificate will not be checked').waitFor();
        await page.screenshot({
          path: screenshotPath(`monitor-redis-form-${size}-${colorScheme}`),
          fullPage: true,
        });
        await context.close();
      }
    }
  });

  it('fits the database form on a phone', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await newPage(context);
    await page.goto(`${app.url}/monitors/new`);
    await page
      .getByRole('radiogroup', { name: 'Monitor type' })
      .getByRole('radio', { name: 'PostgreSQL', exact: true })
      .click();
    await page.getByLabel('Connect over TLS').check();
    await page.getByLabel(/Accept certificates from any issuer/).check();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('monitor-postgres-form-phone'), fullPage: true });
    await context.close();
    expect(errors).toEqual([]);
  });
});
