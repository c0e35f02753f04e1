import { toFieldErrors } from '@pagewatch/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RequestContext } from '../domain/actor.js';
import { AppError, validationFailed } from '../lib/errors.js';

/**
 * Who may call a route. Declared on every route; `onRoute` in app.ts refuses to
 * register one without it, so no endpoint is ever open by omission.
 */
export type Access = 'public' | 'viewer' | 'editor' | 'admin' | 'owner';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Open to a person the second-factor policy is sending to enrol (ADR 51). */
    duringEnrolment?: boolean;
  }
}

type Schema = z.ZodType;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface RouteDef<P, Q, B> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  /**
   * Answers a signed-in person who still has to set up a second factor the policy requires
   * (their session, sign-out, enrolment); every other route refuses them (ADR 51).
   */
  duringEnrolment?: boolean;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Status → body schema (null: no body). The first 2xx is the success status. */
  responses: Record<number, Schema | null>;
  /** A binary success body of this media type (the handler sends it; its schema is null). */
  produces?: string;
  /** Raw request bodies of these media types (the handler reads a Buffer; no `body` schema). */
  consumes?: readonly string[];
  /** This route's own request body limit in bytes, instead of the app's. */
  bodyLimit?: number;
  /** The OpenAPI operationId, where the one derived from method and URL reads badly. */
  operationId?: string;
  /** Longer Markdown for the API reference, below the summary. */
  description?: string;
  /**
   * Problem statuses its services answer that the route's shape does not imply (409, 429…):
   * 400, 401, 403, 404 and 413 follow from access, method, params and body.
   */
  errors?: readonly (401 | 403 | 404 | 409 | 429 | 503)[];
  handler(ctx: {
    params: Out<P>;
    query: Out<Q>;
    body: Out<B>;
    /** Who is asking (set by the auth plugin). */
    ctx: RequestContext;
    request: FastifyRequest;
    reply: FastifyReply;
  }): Promise<unknown>;
}

export type AnyRouteDef = RouteDef<Schema | undefined, Schema | undefined, Schema | undefined>;

function parse<S extends Schema | undefined>(
  schema: S,
  value: unknown,
  onError: (e: z.ZodError) => AppError,
): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = schema.safeParse(value);
  if (!result.success) throw onError(result.error);
  return result.data as Out<S>;
}

/** Registered API routes, read by the OpenAPI document. */
export class ApiRegistry {
  readonly routes: AnyRouteDef[] = [];

  add<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined>(
    app: FastifyInstance,
    def: RouteDef<P, Q, B>,
  ): void {
    this.routes.push(def);
    const success = Number(Object.keys(def.responses).find((s) => Number(s) < 300) ?? 200);
    const empty = def.responses[success] === null;
    app.route({
      method: def.method,
      url: def.url,
      config: { access: def.access, duringEnrolment: def.duringEnrolment === true },
      ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
      handler: async (request, reply) => {
        const params = parse(
          def.params,
          request.params,
          () => new AppError('not_found', 'Nothing lives at this address'),
        );
        const query = parse(def.query, request.query, (e) =>
          validationFailed(toFieldErrors(e.issues), 'The query string is not valid'),
        );
        const body = parse(def.body, request.body ?? undefined, (e) =>
          validationFailed(
            toFieldErrors(e.issues),
            request.body === undefined ? 'Send a JSON body' : undefined,
          ),
        );
        const out = await def.handler({
          params: params as Out<P>,
          query: query as Out<Q>,
          body: body as Out<B>,
          ctx: request.ctx,
          request,
          reply,
        });
        if (reply.sent) return reply;
        reply.code(success);
        return empty ? reply.send() : out;
      },
    });
  }
}
