import path from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { repositories } from '../../src/db/repositories/index.js';
import { monitorInput } from './factories.js';
import { insertChannel, linkChannel } from './outbox.js';
import { resultDriver } from './result-driver.js';

/**
 * A data dir whose monitors just went down: `count` HTTP monitors (retries 0, every 10 s) at
 * `url`, each with a confirmed DOWN written by the real result writer, so `count` down
 * alerts for the webhook at `hook` sit in the outbox when the server starts.
 */
export async function seedQueuedAlerts(
  dataDir: string,
  url: string,
  hook: string,
  count: number,
): Promise<number[]> {
  const database = await openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'pagewatch.db') });
  try {
    const repos = repositories(database);
    const channel = await insertChannel(database, { url: hook });
    const ids: number[] = [];
    const now = Date.now();
    for (let i = 0; i < count; i++) {
      const m = await repos.monitors.insert(
        monitorInput({ url, retries: 0, interval: 10, timeout: 2 }),
        now,
      );
      await linkChannel(database, m.id, channel);
      const drive = resultDriver(repos, m.id, 0, now - 120_000);
      await drive.run('up', 'down');
      ids.push(m.id);
    }
    return ids;
  } finally {
    await database.close();
  }
}
