import {
  ChannelAttachInput,
  ChannelAttachResult,
  ChannelCoverage,
  ChannelCreateInput,
  ChannelIdParams,
  ChannelTestResult,
  ChannelUpdateInput,
  MonitorIdParams,
  MonitorInput,
  MonitorTrialResult,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../../domain/actor.js';
import { actorUserId } from '../../../domain/actor.js';
import { AppError } from '../../../lib/errors.js';
import { RateLimiter, type RateLimitOptions } from '../../../lib/rate-limit.js';
import { trialCheck } from '../../../services/monitors/trial.js';
import {
  attachChannel,
  channelCoverage,
} from '../../../services/notification-channels/coverage.js';
import { testChannelSettings } from '../../../services/notification-channels/test.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

/** A trial reaches a real target: 5 at once per person, then one every 4 s. */
const TRIAL_RATE = { burst: 5, refillMs: 4_000 };
/** Unsaved channel tests reach a real receiver, like saved ones: 5 at once, one every 6 s. */
const SEND_RATE = { burst: 5, refillMs: 6_000 };

const who = (ctx: RequestContext) =>
  `${ctx.actor.type}:${actorUserId(ctx.actor) ?? ctx.ip ?? 'unknown'}`;

function limit(limiter: RateLimiter, rate: RateLimitOptions, key: string, what: string): void {
  const waitMs = limiter.take(key);
  if (waitMs > 0)
    throw new AppError(
      'rate_limited',
      `Too many ${what}; at most ${rate.burst} at once and one every ${rate.refillMs / 1000} s`,
      undefined,
      Math.ceil(waitMs / 1000),
    );
}

/** Alert coverage (monitors no channel alerts for, attach to many) and trials of unsaved forms. */
export function alertCoverageRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  const trials = new RateLimiter(TRIAL_RATE, deps.clock);
  const sends = new RateLimiter(SEND_RATE, deps.clock);

  api.add(app, {
    method: 'GET',
    url: '/api/v1/monitors/coverage',
    operationId: 'monitorAlertCoverage',
    access: 'viewer',
    tag: 'monitors',
    summary: 'Monitors that alert nobody: no enabled notification channel is linked to them',
    responses: { 200: ChannelCoverage },
    handler: async () => channelCoverage(deps),
  });

  for (const withId of [false, true]) {
    api.add(app, {
      method: 'POST',
      url: withId ? '/api/v1/monitors/:id/test' : '/api/v1/monitors/test',
      operationId: withId ? 'testMonitorEdit' : 'testMonitorDraft',
      errors: [409, 429, 503],
      access: 'editor',
      tag: 'monitors',
      summary: withId
        ? 'Check once with edited, unsaved settings (stored credentials kept); nothing is recorded'
        : 'Check once with the settings of a monitor not created yet; nothing is recorded',
      ...(withId ? { params: MonitorIdParams } : {}),
      body: MonitorInput,
      responses: { 200: MonitorTrialResult },
      handler: async ({ params, body, ctx }) => {
        limit(trials, TRIAL_RATE, who(ctx), 'test checks');
        const id = (params as { id?: number } | undefined)?.id ?? null;
        return trialCheck(deps, id, body);
      },
    });
  }

  api.add(app, {
    method: 'POST',
    url: '/api/v1/notification-channels/test',
    operationId: 'testChannelDraft',
    errors: [429],
    access: 'admin',
    tag: 'notification-channels',
    summary: 'Send a test message through the settings of a channel not created yet',
    body: ChannelCreateInput,
    responses: { 200: ChannelTestResult },
    handler: async ({ body, ctx }) => {
      limit(sends, SEND_RATE, who(ctx), 'test messages');
      return testChannelSettings(deps, ctx, null, body);
    },
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/notification-channels/:id/test-settings',
    operationId: 'testChannelEdit',
    errors: [429],
    access: 'admin',
    tag: 'notification-channels',
    summary:
      'Send a test message through edited, unsaved settings; a secret left out is the stored one',
    params: ChannelIdParams,
    body: ChannelUpdateInput,
    responses: { 200: ChannelTestResult },
    handler: async ({ params, body, ctx }) => {
      limit(sends, SEND_RATE, who(ctx), 'test messages');
      return testChannelSettings(deps, ctx, params.id, body);
    },
  });

  api.add(app, {
    method: 'POST',
    url: '/api/v1/notification-channels/:id/attach',
    operationId: 'attachChannel',
    access: 'admin',
    tag: 'notification-channels',
    summary: 'Link the channel to every monitor, or to every monitor with a tag',
    params: ChannelIdParams,
    body: ChannelAttachInput,
    responses: { 200: ChannelAttachResult },
    handler: async ({ params, body, ctx }) => attachChannel(deps, ctx, params.id, body),
  });
}
