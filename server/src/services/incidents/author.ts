import { actorUserId, type RequestContext } from '../../domain/actor.js';
import type { Author } from '../../db/repositories/incidents.js';

/** Who signs an update: the person (an API key writes for its creator), by their label. */
export function authorOf(ctx: RequestContext): Author {
  const a = ctx.actor;
  const label = a.type === 'anonymous' ? 'anonymous' : a.label;
  return { id: actorUserId(a), label };
}
