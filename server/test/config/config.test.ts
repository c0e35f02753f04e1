import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('configuration (SPEC §9)', () => {
  it('just works with nothing set: port 3000 on every interface, SQLite in ./data', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      trustProxy: false,
      dataDir: path.resolve('data'),
      database: { kind: 'sqlite', file: path.resolve('data', 'pagewatch.db') },
      logLevel: 'info',
      roles: ['web', 'scheduler', 'notifier'],
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('turns the server-side configuration mode on with PAGEWATCH_CONFIG, detaching by default', () => {
    expect(loadConfig({}).configFile).toBeNull();
    expect(loadConfig({ PAGEWATCH_CONFIG: 'config.d' }).configFile).toEqual({
      path: path.resolve('config.d'),
      prune: false,
      pollMs: 30_000,
    });
    expect(
      loadConfig({
        PAGEWATCH_CONFIG: '/etc/pagewatch/config.yaml',
        PAGEWATCH_CONFIG_PRUNE: 'true',
        PAGEWATCH_CONFIG_POLL_S: '5',
      }).configFile,
    ).toEqual({ path: '/etc/pagewatch/config.yaml', prune: true, pollMs: 5_000 });
    expect(problems({ PAGEWATCH_CONFIG_PRUNE: 'yes', PAGEWATCH_CONFIG_POLL_S: '0' })).toEqual([
      'PAGEWATCH_CONFIG_PRUNE="yes" must be true or false',
      'PAGEWATCH_CONFIG_POLL_S="0" must be at least 1',
    ]);
  });

  it('uses PostgreSQL when PAGEWATCH_DATABASE_URL is a postgres URL', () => {
    const c = loadConfig({ PAGEWATCH_DATABASE_URL: 'postgres://u@db:5432/pw' });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/pw' });
  });

  it('reads every variable it documents', () => {
    const c = loadConfig({
      PAGEWATCH_PORT: '8080',
      PAGEWATCH_HOST: '::',
      PAGEWATCH_DATA_DIR: '/var/lib/pagewatch',
      PAGEWATCH_LOG_LEVEL: 'debug',
      PAGEWATCH_ROLES: 'web, scheduler',
      PAGEWATCH_CHECK_CONCURRENCY: '50',
      PAGEWATCH_CHROMIUM_PATH: '/opt/chromium/chrome',
      PAGEWATCH_BROWSER_CONCURRENCY: '3',
      PAGEWATCH_PUBLIC_URL: 'https://status.example.com',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '::',
      dataDir: '/var/lib/pagewatch',
      logLevel: 'debug',
      roles: ['web', 'scheduler'],
      checkConcurrency: 50,
      chromiumPath: '/opt/chromium/chrome',
      browserConcurrency: 3,
      publicUrl: 'https://status.example.com',
    });
  });

  it('sends notifications with a 10 s limit, 16 at a time, unless told otherwise', () => {
    expect(loadConfig({}).notify).toMatchObject({ timeoutMs: 10_000, concurrency: 16 });
    const c = loadConfig({ PAGEWATCH_NOTIFY_TIMEOUT_S: '30', PAGEWATCH_NOTIFY_CONCURRENCY: '4' });
    expect(c.notify).toMatchObject({ timeoutMs: 30_000, concurrency: 4 });
    expect(problems({ PAGEWATCH_NOTIFY_TIMEOUT_S: '0' })).toEqual([
      'PAGEWATCH_NOTIFY_TIMEOUT_S="0" must be at least 1',
    ]);
  });

  it("weighs this scheduler's share of the partitions by PAGEWATCH_CAPACITY, 1 by default", () => {
    expect(loadConfig({}).capacity).toBe(1);
    expect(loadConfig({ PAGEWATCH_CAPACITY: '3' }).capacity).toBe(3);
    expect(problems({ PAGEWATCH_CAPACITY: '0' })).toEqual([
      'PAGEWATCH_CAPACITY="0" must be at least 1',
    ]);
    expect(problems({ PAGEWATCH_CAPACITY: '1.5' })).toEqual([
      'PAGEWATCH_CAPACITY="1.5" must be a whole number',
    ]);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PAGEWATCH_PORT: '' }).port).toBe(3000);
  });

  it('names each bad variable, its value and what it expects, all at once', () => {
    const found = problems({
      PAGEWATCH_PORT: '70000',
      PAGEWATCH_LOG_LEVEL: 'loud',
      PAGEWATCH_DATABASE_URL: 'mysql://x',
      PAGEWATCH_ROLES: 'web,cron',
    });
    expect(found).toHaveLength(4);
    expect(found).toEqual(
      expect.arrayContaining([
        'PAGEWATCH_PORT="70000" must be between 0 and 65535',
        expect.stringMatching(/^PAGEWATCH_LOG_LEVEL="loud" must be one of/),
        expect.stringMatching(/^PAGEWATCH_DATABASE_URL="mysql:\/\/x" must be a postgres:\/\/ URL/),
        expect.stringMatching(/^PAGEWATCH_ROLES="web,cron" roles are web, scheduler, notifier/),
      ]),
    );
  });

  it('reads the connectivity guard canaries and refuses entries without a port', () => {
    expect(loadConfig({}).canaryTargets).toBe('');
    expect(loadConfig({ PAGEWATCH_CANARY_TARGETS: '1.1.1.1:53,[::1]:443' }).canaryTargets).toBe(
      '1.1.1.1:53,[::1]:443',
    );
    expect(problems({ PAGEWATCH_CANARY_TARGETS: '1.1.1.1' })).toEqual([
      'PAGEWATCH_CANARY_TARGETS="1.1.1.1" must be host:port entries separated by commas',
    ]);
  });

  it('allows private notification targets unless PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS is true', () => {
    expect(loadConfig({}).notify.blockPrivateTargets).toBe(false);
    const c = loadConfig({ PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS: 'true' });
    expect(c.notify.blockPrivateTargets).toBe(true);
    expect(problems({ PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS: 'yes' })).toEqual([
      'PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS="yes" must be true or false',
    ]);
  });

  it('rejects a port that is not a number', () => {
    expect(problems({ PAGEWATCH_PORT: 'eighty' })).toEqual([
      'PAGEWATCH_PORT="eighty" must be a number',
    ]);
  });
});
