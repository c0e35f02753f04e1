import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_SECRET } from '../support/backup.js';
import { runCli, runCliProcess } from '../support/cli.js';

describe('npx pagewatch backup and restore', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp({ engine: 'sqlite', listen: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-cli-backup-'));
  });
  afterAll(async () => {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const env = (id: { headers: { authorization: string } }) => ({
    PAGEWATCH_URL: t.url,
    PAGEWATCH_API_KEY: id.headers.authorization.replace(/^Bearer /, ''),
  });

  it('refuses an editor key, saying the role is too low, and writes nothing', async () => {
    const editor = await t.identity('editor');
    const run = await runCli(['backup', '-o', path.join(dir, 'no.gz')], env(editor));
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^pagewatch: The API key's role may not do this/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('writes the file it is told to, and the real bin restores it into a new data folder', async () => {
    const file = path.join(dir, 'nightly.gz');
    const run = await runCli(['backup', '-o', file], env(t.owner));
    expect(run.err).toBe('');
    expect(run.out).toMatch(
      /^Wrote .*nightly\.gz \(\d+\.\d MiB: \d+ rows in \d+ tables, schema \d+-[a-z-]+, from sqlite\)/,
    );
    expect(fs.readdirSync(dir)).toEqual(['nightly.gz']);

    const data = fs.mkdtempSync(path.join(dir, 'data-'));
    const restored = await runCliProcess(['restore', file], {
      PAGEWATCH_DATA_DIR: data,
      PAGEWATCH_SECRET: TEST_SECRET,
    });
    expect(restored.err).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/^Restored \d+ rows in \d+ tables into .*pagewatch\.db/);
    // A second restore into the same, now full, instance is refused.
    const again = await runCli(['restore', file], {
      PAGEWATCH_DATA_DIR: data,
      PAGEWATCH_SECRET: TEST_SECRET,
    });
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^pagewatch: Nothing was restored\. This instance is not empty/);
  });

  it('names a missing file and a bad environment', async () => {
    const missing = await runCli(['restore', path.join(dir, 'nope.gz')], {
      PAGEWATCH_DATA_DIR: dir,
      PAGEWATCH_SECRET: TEST_SECRET,
    });
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/nope\.gz does not exist/);
    const config = await runCli(['restore', 'x.gz'], { PAGEWATCH_DATABASE_URL: 'mysql://x' });
    expect(config.code).toBe(2);
    expect(config.err).toMatch(/PAGEWATCH_DATABASE_URL="mysql:\/\/x" must be a postgres:\/\/ URL/);
  });
});
