import type { ReportScheduleList } from '@pagewatch/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../server/test/support/app.js';
import { monitorInput } from '../server/test/support/factories.js';
import { shootAll } from './support/screens.js';
import { startSignedInOwner, type SignedInOwner } from './support/signed-in.js';

/**
 * Issue 20 item 3 in the browser (ADR 65): monthly report emails to chosen people. An admin
 * picks a person from the instance's users and an address, then edits the email (another
 * subject, the person taken off, paused), and deleting it asks first.
 */
describe('monthly report emails: people, edit, pause and delete', () => {
  let owner: SignedInOwner;
  let app: TestApp;
  let page: Page;

  beforeAll(async () => {
    owner = await startSignedInOwner();
    ({ app, page } = owner);
    for (const name of ['Storefront', 'Checkout API']) {
      await app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: monitorInput({ name }),
      });
    }
    await app.identity('viewer', 'dana@acme.example');
  });
  afterAll(async () => owner?.stop());

  const shoot = (p: Page, name: string) => shootAll(p, `report-schedules-${name}`);
  const stored = async () =>
    (
      await app.inject({ method: 'GET', url: '/api/v1/reports/schedules' })
    ).json<ReportScheduleList>().items;

  it('sends to a chosen person, is edited and paused, and asks before it is deleted', async () => {
    await page.goto(`${app.url}/reports/delivery`);
    await page.getByRole('button', { name: 'New monthly email' }).click();
    const form = page.getByRole('form', { name: 'New monthly email' });
    await form.getByLabel('Name').fill('ACME monthly');
    await form.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Storefront' });
    await form.getByLabel(/dana@acme\.example/).check();
    await form.getByLabel('Other addresses').fill('cto@acme.example');
    await shoot(page, 'new');
    await form.getByRole('button', { name: 'Schedule' }).click();
    const list = page.getByRole('list', { name: 'Monthly emails' });
    await expect.poll(() => list.textContent(), { timeout: 30_000 }).toContain('2 recipients');
    const [made] = await stored();
    expect(made).toMatchObject({ emails: ['cto@acme.example'], enabled: true });
    expect(made?.userIds).toHaveLength(1);
    expect(await list.textContent()).toContain(`Next: ${made?.nextPeriod}`);

    await list.getByRole('button', { name: 'Edit ACME monthly' }).click();
    const edit = page.getByRole('form', { name: 'Edit “ACME monthly”' });
    await expect.poll(() => edit.getByLabel('Name').inputValue()).toBe('ACME monthly');
    expect(await edit.getByLabel(/dana@acme\.example/).isChecked()).toBe(true);
    await edit.getByLabel('Monitor', { exact: true }).selectOption({ label: 'Checkout API' });
    await edit.getByLabel(/dana@acme\.example/).uncheck();
    await edit.getByLabel('Send every month (clear to pause)').uncheck();
    await shoot(page, 'edit');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => list.textContent(), { timeout: 30_000 }).toContain('paused');
    const [changed] = await stored();
    expect(changed).toMatchObject({ id: made?.id, userIds: [], enabled: false });
    expect(changed?.subject.id).not.toBe(made?.subject.id);
    expect(await list.textContent()).toContain('Checkout API');
    await shoot(page, 'paused');

    // Deleting asks; Cancel keeps it.
    await list.getByRole('button', { name: 'Delete ACME monthly' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “ACME monthly”?' });
    await dialog.waitFor();
    await shoot(page, 'delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await stored()).toHaveLength(1);
    await list.getByRole('button', { name: 'Delete ACME monthly' }).click();
    await dialog.getByRole('button', { name: 'Delete monthly email' }).click();
    await expect.poll(() => stored(), { timeout: 30_000 }).toEqual([]);
    await expect.poll(() => page.getByText('No monthly emails yet.').count()).toBe(1);
    expect(owner.errors).toEqual([]);
  }, 600_000);
});
