import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { publishChange } from './event.js';

/** Deletes a page with its sections, components, logo and subscribers. */
export async function removeStatusPage(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const page = await deps.repos.statusPages.findById(id);
  if (!page || !(await deps.repos.statusPages.remove(id))) throw notFound('Status page');
  await audit(
    deps,
    ctx,
    'status_page.deleted',
    { type: 'status_page', id },
    `Deleted status page "${page.title}" (/status/${page.slug})`,
  );
  publishChange(deps, 'deleted', id);
}
