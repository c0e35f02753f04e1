import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MonitorList } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { startTargetServer, type TargetServer } from '../fixtures/target-server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { dumpTable, readBackup, restoreEnv } from '../support/backup.js';
import { runCli } from '../support/cli.js';
import { engines, testTarget, type TestTarget } from '../support/engines.js';
import { until } from '../support/until.js';

const MONITORS = 1000;

/** A fresh target `pagewatch restore` reaches through PAGEWATCH_DATA_DIR or the schema. */
async function freshTarget(engine: 'sqlite' | 'postgres'): Promise<TestTarget> {
  if (engine === 'postgres') return testTarget('postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-restore-'));
  return {
    target: { kind: 'sqlite', file: path.join(dir, 'pagewatch.db') },
    cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Restores `file` into `target` through the CLI and checks every table equals the file's. */
async function restoreAndCompare(file: string, target: DatabaseTarget) {
  const restored = await runCli(['restore', file], restoreEnv(target));
  expect(restored.err).toBe('');
  expect(restored.code).toBe(0);
  const backup = await readBackup(file);
  const database = await openDatabase(target);
  try {
    for (const [table, { columns, rows }] of backup.tables)
      expect({ table, rows: await dumpTable(database, table, columns) }).toEqual({ table, rows });
  } finally {
    await database.close();
  }
  return { backup, out: restored.out };
}

/** Every table's rows, per monitor where it has one, as the invariants below read them. */
function perMonitor(table: { columns: string[]; rows: string[] }, column: string, sum?: string) {
  const at = table.columns.indexOf(column);
  const add = sum ? table.columns.indexOf(sum) : -1;
  const out = new Map<number, number>();
  for (const line of table.rows) {
    const row = JSON.parse(line) as number[];
    out.set(row[at]!, (out.get(row[at]!) ?? 0) + (add >= 0 ? row[add]! : 1));
  }
  return out;
}

describe.each(engines)('backup while 1,000 monitors are checked, on %s', (engine) => {
  let t: TestApp;
  let target: TargetServer;
  let dir: string;
  const targets: TestTarget[] = [];

  beforeAll(async () => {
    target = await startTargetServer();
    t = await startTestApp({ engine, scheduler: true, listen: true });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-backups-'));
    for (let i = 0; i < MONITORS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, MONITORS - i) }, (_, j) =>
          t.inject({
            method: 'POST',
            url: '/api/v1/monitors',
            payload: {
              type: 'http',
              name: `Site ${i + j}`,
              url: `${target.url}/ok?n=${i + j}`,
              interval: 10,
              timeout: 5,
            },
          }),
        ),
      );
    }
  }, 120_000);
  afterAll(async () => {
    await t.stop();
    await target.close();
    for (const x of targets) await x.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is one consistent moment while results keep coming, and restores table by table', async () => {
    await until(
      'every monitor checked once',
      async () => ((await checkedMonitors(t)) >= MONITORS ? true : undefined),
      90_000,
    );
    const cli = await runCli(['backup', '-o', dir], {
      PAGEWATCH_URL: t.url,
      PAGEWATCH_API_KEY: t.owner.headers.authorization.slice('Bearer '.length),
    });
    expect(cli.err).toBe('');
    expect(cli.code).toBe(0);
    const [name] = fs.readdirSync(dir);
    expect(name).toMatch(/^pagewatch-.*\.pagewatch-backup\.gz$/);
    const file = path.join(dir, name!);
    const { header, tables } = await readBackup(file);
    expect(header).toMatchObject({ engine, format: 'pagewatch-backup', formatVersion: 1 });
    expect(tables.get('monitors')!.rows).toHaveLength(MONITORS);

    // One moment: each monitor's results, and the rollups folded from them in the same
    // transactions, agree; tables read at different moments would not (checks went on).
    const results = perMonitor(tables.get('check_results')!, 'monitor_id');
    expect(results.size).toBe(MONITORS);
    for (const grain of ['rollup_minute', 'rollup_hour', 'rollup_day'])
      expect(perMonitor(tables.get(grain)!, 'monitor_id', 'checks')).toEqual(results);
    // Nothing lost: each result of the snapshot is the source's row, byte for byte.
    const columns = tables.get('check_results')!.columns;
    const source = new Set(await dumpTable(t.database, 'check_results', columns));
    for (const row of tables.get('check_results')!.rows) expect(source.has(row)).toBe(true);
    expect(source.size).toBeGreaterThan(tables.get('check_results')!.rows.length);

    const fresh = await freshTarget(engine);
    targets.push(fresh);
    const { out } = await restoreAndCompare(file, fresh.target);
    expect(out).toMatch(/^Restored \d+ rows in \d+ tables/);

    // The restored instance runs: the source's API key works, new ids follow the restored ones.
    const restored = await startTestApp({
      engine,
      sharing: { target: fresh.target, owner: t.owner } as TestApp,
    });
    try {
      const list = MonitorList.parse((await restored.inject('/api/v1/monitors')).json());
      expect(list.items).toHaveLength(MONITORS);
      const created = await restored.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        payload: { type: 'http', name: 'After restore', url: `${target.url}/ok` },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json<{ id: number }>().id).toBeGreaterThan(
        Math.max(...list.items.map((m) => m.id)),
      );
    } finally {
      await restored.close();
    }
  }, 240_000);
});

async function checkedMonitors(t: TestApp): Promise<number> {
  const row = await t.database.db
    .selectFrom('monitors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('last_check_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
