import { SubscribeInput } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/errors.js';
import { RateLimiter } from '../../../lib/rate-limit.js';
import type { ServiceDeps } from '../../../services/deps.js';
import {
  confirmSubscription,
  describeToken,
  unsubscribe,
} from '../../../services/subscribers/confirm.js';
import { subscribe } from '../../../services/subscribers/subscribe.js';
import {
  actionPage,
  messagePage,
  subscribeCsp,
  subscribeForm,
} from '../../../status-pages/subscribe/view.js';

/** Per visitor: 5 requests, then one every 2 minutes; per page: 60, then one a second. */
export const SUBSCRIBE_RATE = {
  perIp: { burst: 5, refillMs: 120_000 },
  perPage: { burst: 60, refillMs: 1_000 },
} as const;

interface SlugParams {
  slug: string;
}
interface TokenParams extends SlugParams {
  token: string;
}

function send(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-security-policy', subscribeCsp)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

const notHere = (reply: FastifyReply) =>
  send(reply, 404, messagePage('Page not found', ['There is no status page at this address.']));

const pagePath = (slug: string) => `/status/${encodeURIComponent(slug)}`;

/**
 * Public subscription flows of status pages (SPEC §3 Subscriber): the form, double opt-in for
 * email, and unsubscribe (including RFC 8058 one-click). Plain HTML forms: no script needed.
 */
export async function subscribeRoutes(app: FastifyInstance, deps: ServiceDeps): Promise<void> {
  const perIp = new RateLimiter(SUBSCRIBE_RATE.perIp, deps.clock);
  const perPage = new RateLimiter(SUBSCRIBE_RATE.perPage, deps.clock);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  async function formState(slug: string) {
    const page = await deps.repos.statusSubscribers.page(slug);
    if (!page || !page.published) return null;
    const { email, webhook } = page.subscriptions;
    return email || webhook ? { slug, pageTitle: page.title, email, webhook } : null;
  }

  app.get<{ Params: SlugParams }>(
    '/status/:slug/subscribe',
    { config: { access: 'public' } },
    async (request, reply) => {
      const state = await formState(request.params.slug);
      return state ? send(reply, 200, subscribeForm(state)) : notHere(reply);
    },
  );

  app.post<{ Params: SlugParams }>(
    '/status/:slug/subscribe',
    { config: { access: 'public' }, bodyLimit: 8 * 1024 },
    async (request: FastifyRequest<{ Params: SlugParams }>, reply) => {
      const { slug } = request.params;
      const json = request.headers['content-type']?.startsWith('application/json') ?? false;
      const state = await formState(slug);
      if (!state) {
        if (json) throw new AppError('not_found', 'There is no status page here');
        return notHere(reply);
      }
      const waitMs = Math.max(perIp.take(request.ip), perPage.take(slug));
      if (waitMs > 0) {
        const retry = Math.ceil(waitMs / 1000);
        if (json) throw new AppError('rate_limited', 'Too many requests', undefined, retry);
        void reply.header('retry-after', String(retry));
        return send(
          reply,
          429,
          subscribeForm({ ...state, error: 'Too many requests: try again in a few minutes.' }),
        );
      }
      const parsed = SubscribeInput.safeParse(request.body);
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const typed = { [String(raw.kind)]: typeof raw.address === 'string' ? raw.address : '' };
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Check the address';
        if (json) throw new AppError('validation_failed', message);
        return send(reply, 400, subscribeForm({ ...state, error: message, values: typed }));
      }
      const origin = `${request.protocol}://${request.host}`;
      try {
        await subscribe(deps, slug, parsed.data, origin);
      } catch (err) {
        if (json || !(err instanceof AppError) || err.type !== 'validation_failed') throw err;
        const message = err.errors?.[0]?.message ?? err.message;
        return send(reply, 400, subscribeForm({ ...state, error: message, values: typed }));
      }
      const pending = parsed.data.kind === 'email';
      if (json) return reply.code(202).send({ state: pending ? 'pending' : 'confirmed' });
      return send(
        reply,
        200,
        pending
          ? messagePage(
              'Check your inbox',
              [
                `If ${parsed.data.address} can receive mail, a confirmation link is on its way.`,
                'Nothing is sent until you confirm.',
              ],
              pagePath(slug),
            )
          : messagePage(
              'Subscribed',
              ['Your webhook will receive every notice from this page.'],
              pagePath(slug),
            ),
      );
    },
  );

  const tokenPages = [
    {
      path: 'confirm',
      title: 'Confirm your subscription',
      button: 'Confirm subscription',
      run: confirmSubscription,
      done: ['You are subscribed', 'You will hear about incidents and maintenance on this page.'],
    },
    {
      path: 'unsubscribe',
      title: 'Unsubscribe',
      button: 'Unsubscribe',
      run: unsubscribe,
      done: ['You are unsubscribed', 'You will not receive further messages from this page.'],
    },
  ] as const;

  for (const t of tokenPages) {
    app.get<{ Params: TokenParams }>(
      `/status/:slug/${t.path}/:token`,
      { config: { access: 'public' } },
      async (request, reply) => {
        const { slug, token } = request.params;
        const target = await describeToken(deps, slug, token).catch(() => null);
        if (!target) return notHere(reply);
        return send(
          reply,
          200,
          actionPage(
            t.title,
            target.page.title,
            `${pagePath(slug)}/${t.path}/${encodeURIComponent(token)}`,
            t.button,
          ),
        );
      },
    );
    // Also the RFC 8058 one-click target ("List-Unsubscribe=One-Click" form body).
    app.post<{ Params: TokenParams }>(
      `/status/:slug/${t.path}/:token`,
      { config: { access: 'public' }, bodyLimit: 1024 },
      async (request, reply) => {
        const { slug, token } = request.params;
        const target = await t.run(deps, slug, token).catch(() => null);
        if (!target) return notHere(reply);
        const [title, line] =
          t.path === 'confirm' && target.state === 'unsubscribed'
            ? ['This subscription was cancelled', 'Subscribe again from the status page.']
            : t.done;
        return send(reply, 200, messagePage(title, [line], pagePath(slug)));
      },
    );
  }
}
