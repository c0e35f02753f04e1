import pino from 'pino';
import type { Config } from '../../src/config/config.js';
import { composePagewatch, type ComposeOptions, type Pagewatch } from '../../src/compose.js';
import { testTarget } from './engines.js';

export interface TestApp extends Pagewatch {
  /** Base URL once `listen` was asked for. */
  url: string;
  stop(): Promise<void>;
}

export interface TestAppOptions extends ComposeOptions {
  engine: 'sqlite' | 'postgres';
  /** Run the scheduler (off by default: API tests drive state themselves). */
  scheduler?: boolean;
  listen?: boolean;
  webDist?: string | null;
}

/** A whole Pagewatch on its own database, as main.ts composes it. */
export async function startTestApp(options: TestAppOptions): Promise<TestApp> {
  const t = await testTarget(options.engine);
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    database: t.target.kind === 'sqlite' ? t.target : { kind: 'postgres', url: t.target.url },
    logLevel: 'silent',
    roles: options.scheduler ? ['web', 'scheduler', 'notifier'] : ['web'],
    checkConcurrency: 100,
    publicUrl: undefined,
    webDist: options.webDist ?? null,
  };
  const pgSchema = t.target.kind === 'postgres' ? t.target.schema : undefined;
  const pw = await composePagewatch(
    config,
    pino({ level: process.env.PAGEWATCH_TEST_LOG ?? 'silent' }),
    {
      ...options,
      ...(pgSchema ? { pgSchema } : {}),
    },
  );
  let url = '';
  if (options.listen) url = await pw.app.listen({ port: 0, host: '127.0.0.1' });
  if (options.scheduler) await pw.startRoles();
  return {
    ...pw,
    url,
    stop: async () => {
      await pw.close();
      await t.cleanup();
    },
  };
}
