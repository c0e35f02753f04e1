import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDist = path.join(repoRoot, 'web/dist');
const shots = path.join(repoRoot, '.test-reports/screenshots');

/** System Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build -w web` (npm test does it first)');
  }
  return chromium.launch({
    executablePath: process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where screenshots are kept as artefacts of the run. */
export function screenshotPath(name: string): string {
  fs.mkdirSync(shots, { recursive: true });
  return path.join(shots, `${name}.png`);
}
