import net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpPeer, type SmtpPeer } from '../server/test/fixtures/smtp-peer.js';
import { startTestApp, type TestApp } from '../server/test/support/app.js';
import { linkIn, useSystemMail } from '../server/test/support/mail.js';
import { until } from '../server/test/support/until.js';
import { newPage, screenshotAll, watchErrors } from './support/auth-ui.js';
import { launchBrowser, signIn, webDist } from './support/browser.js';

/** A free loopback port, so the app's public URL (the links' address) is known before it starts. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * Getting back in and joining, in real Chromium, through a real SMTP peer: the link is read out
 * of the received mail and followed (issue 17).
 */
describe('password reset and invitations by mail in a browser', () => {
  let browser: Browser;
  let app: TestApp;
  let smtp: SmtpPeer;
  const opened: Page[] = [];

  beforeAll(async () => {
    smtp = await startSmtpPeer({ auth: true });
    const port = await freePort();
    app = await startTestApp({
      engine: 'sqlite',
      listen: true,
      port,
      webDist,
      config: { publicUrl: `http://127.0.0.1:${port}` },
    });
    await useSystemMail(app, smtp);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  const mailTo = (email: string) =>
    until(`a mail to ${email}`, () => smtp.mails.find((m) => m.to.includes(email)));

  async function fresh(): Promise<{ page: Page; errors: string[] }> {
    const { page } = await newPage(browser);
    opened.push(page);
    return { page, errors: watchErrors(page) };
  }

  it('"Forgot password?" mails a link; it sets a new password once, then says it was used', async () => {
    const person = await app.identity('editor');
    const { page, errors } = await fresh();
    await page.goto(`${app.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await screenshotAll(page, 'account-login-forgot');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Check your mail').waitFor();
    await screenshotAll(page, 'account-forgot-sent');

    const link = linkIn((await mailTo(person.email)).raw, '/reset-password');
    expect(link.startsWith(`${app.url}/reset-password#`)).toBe(true);
    await page.goto(link);
    await page.getByText(`For ${person.email}.`, { exact: false }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Use at least 10 characters').first().waitFor();
    await page.getByLabel('New password', { exact: true }).fill('a reset passphrase 77');
    await page.getByLabel('Confirm new password').fill('a reset passphrase 77');
    await screenshotAll(page, 'account-reset-form');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password changed').waitFor();

    // The link is spent: opening it again says so and offers a new one.
    await page.goto('about:blank');
    await page.goto(link);
    await page.getByText('This link was already used', { exact: true }).waitFor();
    await screenshotAll(page, 'account-reset-used');

    await page.goto(`${app.url}/login`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('a reset passphrase 77');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${app.url}/`);
    expect(errors).toEqual([]);
  });

  it('an admin invites by email; the invited person picks name and password and is in', async () => {
    const { page: admin, errors } = await fresh();
    await signIn(admin.context(), app.url, app.owner.email, app.owner.password);
    await admin.goto(`${app.url}/settings/users`);
    await admin.getByRole('button', { name: 'Invite', exact: true }).click();
    await admin.getByLabel('Email').fill('ines@example.com');
    await admin.getByLabel('Role', { exact: true }).selectOption('editor');
    await screenshotAll(admin, 'account-invite-form');
    await admin.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByText('Invitation mailed to ines@example.com').waitFor();
    await admin.getByTestId('invitation-row').filter({ hasText: 'ines@example.com' }).waitFor();
    await screenshotAll(admin, 'account-invitations');

    const link = linkIn((await mailTo('ines@example.com')).raw, '/invitation');
    const { page: invitee, errors: inviteeErrors } = await fresh();
    await invitee.goto(link);
    await invitee.getByRole('heading', { name: 'Join as editor' }).waitFor();
    await invitee.getByLabel('Your name').fill('Ines Invited');
    await invitee.getByLabel('Choose a password').fill('my chosen passphrase 5');
    await invitee.getByLabel('Confirm password').fill('my chosen passphrase 5');
    await screenshotAll(invitee, 'account-invitation-accept');
    await invitee.getByRole('button', { name: 'Join and sign in' }).click();
    await invitee.waitForURL(`${app.url}/`);

    const users = (await (
      await fetch(`${app.url}/api/v1/users`, { headers: app.owner.headers })
    ).json()) as { items: { email: string; name: string; role: string }[] };
    expect(users.items.find((u) => u.email === 'ines@example.com')).toMatchObject({
      name: 'Ines Invited',
      role: 'editor',
    });

    // Reused, and tampered: each says why, in plain words.
    const { page: again } = await fresh();
    await again.goto(link);
    await again.getByText('This link was already used', { exact: true }).waitFor();
    await again.goto('about:blank');
    await again.goto(`${link.slice(0, -2)}zz`);
    await again.getByText('This link does not work', { exact: true }).waitFor();
    await screenshotAll(again, 'account-invitation-bad');

    // Accepted: gone from the list.
    await admin.reload();
    await admin.getByRole('heading', { name: 'Users' }).waitFor();
    await admin.getByTestId('user-row').filter({ hasText: 'ines@example.com' }).waitFor();
    expect(await admin.getByTestId('invitation-row').count()).toBe(0);
    expect([...errors, ...inviteeErrors]).toEqual([]);
  });

  it('an admin deletes a person; the account page edits the name and shows system mail', async () => {
    const doomed = await app.identity('viewer', 'dora@example.com');
    const { page, errors } = await fresh();
    await signIn(page.context(), app.url, app.owner.email, app.owner.password);
    await page.goto(`${app.url}/settings/users`);
    const row = page.getByTestId('user-row').filter({ hasText: doomed.email });
    await row.getByRole('button', { name: /^Delete / }).click();
    const dialog = page.getByRole('dialog', { name: /^Delete / });
    await screenshotAll(page, 'account-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page
      .getByText(/their audit entries are kept/)
      .first()
      .waitFor();
    await expect.poll(() => row.count()).toBe(0);

    await page.goto(`${app.url}/settings/account`);
    await page.getByLabel('Name', { exact: true }).fill('Olive the Owner');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Name saved').waitFor();
    await screenshotAll(page, 'account-profile-edit');

    await page.goto(`${app.url}/settings/general`);
    await page.getByRole('heading', { name: 'System mail' }).waitFor();
    expect(await page.getByLabel('Send account mail through').inputValue()).not.toBe('');
    await screenshotAll(page, 'account-system-mail');
    expect(errors).toEqual([]);
  });
});
