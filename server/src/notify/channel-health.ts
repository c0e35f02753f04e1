import type { AlertEvent, ChannelFailure } from '@pagewatch/contract';
import type { ChannelHealthRepository } from '../db/repositories/channel-health.js';
import type { ClaimedDelivery } from '../db/repositories/deliveries.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { OutboxSignal } from '../lib/outbox-signal.js';

/**
 * Delivery safety (ADR 62). The dispatcher reports each channel delivery's final outcome
 * here. A channel is failing once `fail_threshold` deliveries in a row gave up; from then on
 * each delivery it gives up is queued again for its fallback channel, marked as a fallback.
 * Reaching the threshold and the first success after it are each announced once, through the
 * fallback: the count moves by single atomic updates, so exactly one report sees it cross.
 */
export interface ChannelHealth {
  sent(d: ClaimedDelivery): Promise<void>;
  failed(d: ClaimedDelivery, error: string): Promise<void>;
}

/** Only rows to a notification channel count: subscriber notices and contact methods do not. */
const ofChannel = (d: ClaimedDelivery) =>
  d.subscriberId === null && d.contactMethodId === null && d.channelId > 0;

function notice(
  kind: 'channel.failing' | 'channel.recovered',
  f: ChannelFailure,
  now: number,
): AlertEvent {
  return {
    kind,
    at: new Date(now).toISOString(),
    monitor: null,
    status: null,
    previousStatus: null,
    cause: null,
    outageMs: null,
    downChecks: null,
    certificate: null,
    incident: null,
    channelHealth: f,
  };
}

export function channelHealth(deps: {
  health: ChannelHealthRepository;
  clock: Clock;
  outbox: OutboxSignal;
  logger: Logger;
}): ChannelHealth {
  const { health, clock, outbox, logger } = deps;

  // One stream per failing channel: its notices and copies reach the fallback in order.
  async function queue(
    channelId: number,
    fallbackId: number | null,
    rows: { event: AlertEvent; key: string }[],
  ) {
    if (fallbackId === null) return tellAdmins(channelId, rows);
    await health.queueFor(fallbackId, `fb:${channelId}`, rows, clock.now());
    outbox.notify();
  }

  // No fallback (ADR 68): the notices go to the admins' own verified contact methods, at
  // once; the copies of messages have nowhere to go and stay failed in the delivery log.
  async function tellAdmins(channelId: number, rows: { event: AlertEvent; key: string }[]) {
    for (const row of rows) {
      if (row.event.kind !== 'channel.failing' && row.event.kind !== 'channel.recovered') continue;
      const queued = await health.queueForAdmins(`fb:${channelId}`, row, clock.now());
      if (queued === 0)
        logger.warn(
          { channelId, kind: row.event.kind },
          'notifier: channel has no fallback and no admin has a verified contact method',
        );
    }
    outbox.notify();
  }

  return {
    async failed(d, error) {
      if (!ofChannel(d)) return;
      const lastError = error.slice(0, 500);
      const row = await health.recordFailure(d.channelId, lastError);
      if (!row || row.consecutiveFailures < row.failThreshold) return;
      const f: ChannelFailure = {
        channelId: d.channelId,
        channelName: row.name,
        failures: row.consecutiveFailures,
        lastError,
      };
      const rows: { event: AlertEvent; key: string }[] = [];
      if (row.consecutiveFailures === row.failThreshold) {
        logger.warn({ channelId: d.channelId, error }, 'notifier: channel is failing');
        rows.push({
          event: notice('channel.failing', f, clock.now()),
          key: `h:${d.channelId}:failing:${d.id}`,
        });
      }
      rows.push({
        event: { ...d.event, fallback: f },
        key: `fb:${d.channelId}:${d.idempotencyKey ?? `d${d.id}`}`,
      });
      await queue(d.channelId, row.fallbackChannelId, rows);
    },

    async sent(d) {
      if (!ofChannel(d)) return;
      // Compare-and-set on the count seen: of concurrent successes one resets it and announces.
      for (let tries = 0; tries < 3; tries++) {
        const row = await health.read(d.channelId);
        if (!row || row.consecutiveFailures === 0) return;
        if (!(await health.resetIf(d.channelId, row.consecutiveFailures))) continue;
        if (row.consecutiveFailures < row.failThreshold) return;
        logger.info({ channelId: d.channelId }, 'notifier: channel delivers again');
        const f: ChannelFailure = {
          channelId: d.channelId,
          channelName: row.name,
          failures: row.consecutiveFailures,
          lastError: row.lastError,
        };
        await queue(d.channelId, row.fallbackChannelId, [
          {
            event: notice('channel.recovered', f, clock.now()),
            key: `h:${d.channelId}:recovered:${d.id}`,
          },
        ]);
        return;
      }
    },
  };
}
