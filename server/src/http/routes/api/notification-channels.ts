import {
  ChannelCreateInput,
  ChannelIdParams,
  ChannelList,
  ChannelTestResult,
  ChannelUpdateInput,
  NotificationChannel,
} from '@pagewatch/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../lib/errors.js';
import { RateLimiter } from '../../../lib/rate-limit.js';
import { createChannel } from '../../../services/notification-channels/create.js';
import { getChannel } from '../../../services/notification-channels/get.js';
import { listChannels } from '../../../services/notification-channels/list.js';
import { removeChannel } from '../../../services/notification-channels/remove.js';
import { testChannel } from '../../../services/notification-channels/test.js';
import { updateChannel } from '../../../services/notification-channels/update.js';
import type { ServiceDeps } from '../../../services/deps.js';
import type { ApiRegistry } from '../../route.js';

const tag = 'notification-channels';
const base = '/api/v1/notification-channels';

/** Tests reach outside: 5 at once per channel, then one every 6 s (a receiver is a real service). */
const TEST_RATE = { burst: 5, refillMs: 6_000 };

export function notificationChannelRoutes(
  app: FastifyInstance,
  api: ApiRegistry,
  deps: ServiceDeps,
): void {
  const testLimiter = new RateLimiter(TEST_RATE, deps.clock);

  api.add(app, {
    method: 'GET',
    url: base,
    // Editors choose a monitor's channels; they get names and kinds only (see listChannels).
    access: 'editor',
    tag,
    summary: 'Notification channels by name; editors get id, name, kind, isDefault and enabled',
    responses: { 200: ChannelList },
    handler: async ({ ctx }) => listChannels(deps, ctx),
  });

  api.add(app, {
    method: 'POST',
    url: base,
    access: 'admin',
    tag,
    summary: 'Add a channel; secrets are sealed and never returned',
    body: ChannelCreateInput,
    responses: { 201: NotificationChannel },
    handler: async ({ body, reply, ctx }) => {
      const channel = await createChannel(deps, ctx, body);
      void reply.header('location', `${base}/${channel.id}`);
      return channel;
    },
  });

  api.add(app, {
    method: 'GET',
    url: `${base}/:id`,
    access: 'admin',
    tag,
    summary: 'One channel: settings and the names of the secrets that are set',
    params: ChannelIdParams,
    responses: { 200: NotificationChannel },
    handler: async ({ params }) => getChannel(deps, params.id),
  });

  api.add(app, {
    method: 'PUT',
    url: `${base}/:id`,
    access: 'admin',
    tag,
    summary: "Replace a channel's settings; a secret left out keeps its stored value",
    params: ChannelIdParams,
    body: ChannelUpdateInput,
    responses: { 200: NotificationChannel },
    handler: async ({ params, body, ctx }) => updateChannel(deps, ctx, params.id, body),
  });

  api.add(app, {
    method: 'DELETE',
    url: `${base}/:id`,
    access: 'admin',
    tag,
    summary: 'Delete a channel; monitors stop alerting through it',
    params: ChannelIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => removeChannel(deps, ctx, params.id),
  });

  api.add(app, {
    method: 'POST',
    url: `${base}/:id/test`,
    errors: [429],
    access: 'admin',
    tag,
    summary: 'Send a test message now and report the receiver’s answer',
    params: ChannelIdParams,
    responses: { 200: ChannelTestResult },
    handler: async ({ params, ctx }) => {
      const waitMs = testLimiter.take(String(params.id));
      if (waitMs > 0) {
        throw new AppError(
          'rate_limited',
          `Too many tests of this channel; at most ${TEST_RATE.burst} at once and one every ${TEST_RATE.refillMs / 1000} s`,
          undefined,
          Math.ceil(waitMs / 1000),
        );
      }
      return testChannel(deps, ctx, params.id);
    },
  });
}
