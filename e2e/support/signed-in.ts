import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../server/test/support/app.js';
import { launchBrowser, signIn, webDist } from './browser.js';
import { watchErrors } from './auth-ui.js';
import { desktop } from './screens.js';

/** An app on SQLite serving the built UI, and a desktop page signed in as its owner. */
export interface SignedInOwner {
  app: TestApp;
  browser: Browser;
  page: Page;
  /** Page errors, console errors and 5xx answers seen so far (see `watchErrors`). */
  errors: string[];
  /** Closes the browser, then the app; safe after a failed start of either. */
  stop(): Promise<void>;
}

/**
 * The setup most browser tests repeat: start the app, launch Chromium, sign the owner in
 * through the real login endpoint, open a page and watch it for errors.
 */
export async function startSignedInOwner(
  options: { timezoneId?: string } = {},
): Promise<SignedInOwner> {
  const app = await startTestApp({ engine: 'sqlite', listen: true, webDist });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: desktop,
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    });
    await signIn(context, app.url, app.owner.email, app.owner.password);
    const page = await context.newPage();
    const opened = browser;
    return {
      app,
      browser,
      page,
      errors: watchErrors(page),
      stop: async () => {
        await opened.close();
        await app.stop();
      },
    };
  } catch (e) {
    await browser?.close();
    await app.stop();
    throw e;
  }
}
