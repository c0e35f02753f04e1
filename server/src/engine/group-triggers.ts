import type { InsertedResult } from '../db/repositories/results.js';
import type { Logger } from '../lib/logger.js';

export interface GroupTriggerDeps {
  /** The unpaused monitors whose settings name any of these ids (groups of those members). */
  referencing(memberIds: readonly number[]): Promise<number[]>;
  /** Runs a monitor's check now, here or in the process that schedules it (the check-now path). */
  runNow(monitorId: number): Promise<void>;
  logger: Logger;
  /** Flips gathered before their groups are looked up (ms, default 1,000). */
  debounceMs?: number;
}

/**
 * Re-evaluates a group as soon as one of its members flips (addendum to ADR 47), instead of at
 * the group's next interval. Fed by the process that wrote the flip, so each flip triggers once
 * in a cluster; flips within the debounce give one check per group. A group's own flip is a
 * flip like any other, so nested groups follow level by level; cycles are refused on save.
 */
export class GroupTriggers {
  private readonly flipped = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly deps: GroupTriggerDeps) {}

  /** Takes what the result writer (or the quorum) wrote; only flips count. */
  noteWritten(written: readonly InsertedResult[]): void {
    if (this.stopped) return;
    for (const { write } of written) if (write.flip) this.flipped.add(write.monitorId);
    if (this.flipped.size === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.running.then(() => this.trigger());
    }, this.deps.debounceMs ?? 1_000);
    this.timer.unref();
  }

  /** Forgets pending flips and waits for triggers under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flipped.clear();
    await this.running;
  }

  private async trigger(): Promise<void> {
    const members = [...this.flipped];
    this.flipped.clear();
    if (this.stopped || members.length === 0) return;
    try {
      const groups = await this.deps.referencing(members);
      for (const id of groups) {
        // One group's failure (deleted or paused meanwhile) must not keep the others waiting.
        await this.deps
          .runNow(id)
          .catch((err: unknown) =>
            this.deps.logger.debug({ err, monitorId: id }, 'group not re-evaluated early'),
          );
      }
    } catch (err) {
      // Not fatal: the group is still judged at its own interval.
      this.deps.logger.warn(
        { err, members: members.length },
        'could not look up flipped members\u2019 groups',
      );
    }
  }
}
