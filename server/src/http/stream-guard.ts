import { roleRank } from '@pagewatch/contract';
import type { FastifyRequest } from 'fastify';
import { actorRole, actorUserId, type Actor } from '../domain/actor.js';
import type { ServiceDeps } from '../services/deps.js';
import { inspectCredential } from './plugins/auth.js';

// setTimeout's longest delay; a later expiry is re-armed when this one fires.
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface StreamGuard {
  /** Re-reads the credential now (the heartbeat calls it as a backstop). */
  check(): void;
  stop(): void;
}

/** Same person or key, with at least the role the stream was opened with. */
function stillGrants(opened: Actor, now: Actor): boolean {
  const before = actorRole(opened);
  const after = actorRole(now);
  if (!before || !after || opened.type !== now.type) return false;
  if (opened.type === 'user' && now.type === 'user' && opened.id !== now.id) return false;
  if (opened.type === 'api_key' && now.type === 'api_key' && opened.id !== now.id) return false;
  return roleRank[after] >= roleRank[before];
}

/**
 * Ends a long-lived answer once the credential that opened it no longer grants what it did:
 * at once when its person's credentials are revoked or changed (a signal the services ring),
 * and when its session or key expires (a timer). A lowered role ends it too: the client
 * reconnects with its new rights, rather than the stream deciding what it may still carry.
 */
export function guardStream(
  deps: ServiceDeps,
  request: FastifyRequest,
  end: () => void,
): StreamGuard {
  const opened = request.ctx.actor;
  const userId = actorUserId(opened);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const arm = (validUntil: number) => {
    if (timer) clearTimeout(timer);
    const wait = Math.min(Math.max(validUntil - deps.clock.now(), 0), MAX_DELAY_MS);
    timer = setTimeout(check, wait);
  };
  function check(): void {
    inspectCredential(deps, request).then(
      (held) => {
        if (stopped) return;
        if (!held || !stillGrants(opened, held.actor)) return end();
        arm(held.validUntil);
      },
      () => stopped || end(),
    );
  }

  const unsubscribe = deps.revocations.subscribe((r) => {
    if (r.userId === userId) check();
  });
  // Also arms the expiry timer, and catches a revocation made while the request was routed.
  check();
  return {
    check,
    stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
    },
  };
}
