import type { RequestContext } from '../../domain/actor.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { publishChange } from './event.js';

/** Removes a page's logo; the page then shows its title alone. */
export async function removeLogo(deps: ServiceDeps, ctx: RequestContext, id: number) {
  const page = await deps.repos.statusPages.findById(id);
  if (!page) throw notFound('Status page');
  await deps.repos.statusPages.setLogo(id, null, deps.clock.now());
  await audit(
    deps,
    ctx,
    'status_page.logo_removed',
    { type: 'status_page', id },
    `Removed the logo of status page "${page.title}"`,
  );
  publishChange(deps, 'updated', id);
}
