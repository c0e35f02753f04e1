import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { desktop, shootAll } from './support/screens.js';
import { startSignedInOwner, type SignedInOwner } from './support/signed-in.js';

/**
 * Issue 20 item 3 in the browser (ADR 65): an editor schedules a monthly report email and makes
 * a customer link, copies it once, and the link opens the report without a session.
 */
describe('report delivery in the UI', () => {
  let owner: SignedInOwner;
  let app: TestApp;
  let page: Page;

  beforeAll(async () => {
    owner = await startSignedInOwner();
    ({ app, page } = owner);
    await app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: monitorInput({ name: 'Storefront' }),
    });
  });
  afterAll(async () => owner?.stop());

  /** Desktop and phone, light and dark: every screen is looked at in all four. */
  const shoot = (p: Page, name: string) => shootAll(p, `report-delivery-${name}`);

  it('schedules a monthly email and makes a link that opens without a session', async () => {
    await page.goto(`${app.url}/reports/delivery`);
    await page.getByRole('button', { name: 'New monthly email' }).click();
    const form = page.getByRole('form', { name: 'New monthly email' });
    await form.getByLabel('Name').fill('ACME monthly');
    await form.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Storefront' });
    await form.getByLabel('Other addresses').fill('ops@acme.example, cto@acme.example');
    await form.getByLabel('CSV').check();
    await shoot(page, 'schedule-form');
    await form.getByRole('button', { name: 'Schedule' }).click();
    const schedules = page.getByRole('list', { name: 'Monthly emails' });
    await expect
      .poll(() => schedules.textContent(), { timeout: 30_000 })
      .toContain('PDF + CSV to 2 recipients');

    await page.getByRole('button', { name: 'New link' }).click();
    const linkForm = page.getByRole('form', { name: 'New link' });
    await linkForm.getByLabel('Name').fill('For ACME');
    await linkForm.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Storefront' });
    await linkForm.getByRole('button', { name: 'Make link' }).click();
    const url = (await page.locator('.delivery__url').textContent({ timeout: 30_000 })) ?? '';
    expect(url).toMatch(/\/report\/[A-Za-z0-9_-]{43}$/);
    await expect
      .poll(() => page.getByRole('list', { name: 'Customer links' }).textContent(), {
        timeout: 30_000,
      })
      .toContain('For ACME');
    await shoot(page, 'screen');

    // The customer's view: a fresh context, no session.
    const customer = await owner.browser.newContext({ viewport: desktop });
    const cp = await customer.newPage();
    const res = await cp.goto(url);
    expect(res?.status()).toBe(200);
    await expect.poll(() => cp.locator('h1').textContent()).toBe('Storefront');
    await shoot(cp, 'customer-page');
    await customer.close();
    expect(owner.errors).toEqual([]);
  }, 600_000);
});
