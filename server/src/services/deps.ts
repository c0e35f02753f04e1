import type { Repositories } from '../db/repositories/index.js';
import type { Clock } from '../lib/clock.js';
import type { EventHub } from '../lib/event-hub.js';

/** Asks the check engine to run a monitor now; absent when this process runs no scheduler. */
export interface CheckTrigger {
  checkNow(monitorId: number): boolean;
}

export interface ServiceDeps {
  repos: Repositories;
  hub: EventHub;
  clock: Clock;
  trigger: CheckTrigger | null;
}
