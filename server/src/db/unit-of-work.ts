import type { Kysely, Transaction } from 'kysely';
import type { OutboxSignal } from '../lib/outbox-signal.js';
import type { Database } from './database.js';
import { repositories, type Repositories } from './repositories/index.js';
import type { DB } from './schema.js';

/** Runs `work` with repositories whose every write belongs to one transaction. */
export type Transact = <T>(work: (repos: Repositories) => Promise<T>) => Promise<T>;

/**
 * The transaction seen as a database whose own transactions run inline: a repository that
 * opens one (a monitor and its channel links) joins the outer one instead, so a whole
 * configuration document commits or rolls back as one (ADR 28).
 */
function joined(trx: Transaction<DB>): Kysely<DB> {
  const inline = {
    setIsolationLevel: () => inline,
    execute: <T>(fn: (t: Kysely<DB>) => Promise<T>) => fn(proxy),
  };
  const proxy: Kysely<DB> = new Proxy(trx, {
    get(target, prop) {
      if (prop === 'transaction') return () => inline;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return proxy;
}

/**
 * Makes the `transact` of the services. `outbox` is the process's signal: deliveries queued
 * inside (maintenance notices) wake the notifier once the transaction committed.
 */
export function transactor(database: Database, outbox: OutboxSignal): Transact {
  return async (work) => {
    let queued = false;
    const value = await database.db.transaction().execute(async (trx) => {
      const repos = repositories({ ...database, db: joined(trx) });
      repos.outbox.subscribe(() => {
        queued = true;
      });
      return work(repos);
    });
    if (queued) outbox.notify();
    return value;
  };
}
