import type { StatusPage } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { StatusPageValues } from '../../db/repositories/status-pages.js';
import { notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { publishChange } from './event.js';
import { asConflict, checkReferences } from './validate.js';

/** Replaces a page's definition; sections and components are rewritten in the order given. */
export async function updateStatusPage(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  input: StatusPageValues,
): Promise<StatusPage> {
  const before = await deps.repos.statusPages.findById(id);
  if (!before) throw notFound('Status page');
  await checkReferences(deps, input);
  const page = await deps.repos.statusPages.replace(id, input, deps.clock.now()).catch(asConflict);
  if (!page) throw notFound('Status page');
  const publishing =
    before.published === page.published ? '' : page.published ? ', published' : ', unpublished';
  await audit(
    deps,
    ctx,
    'status_page.updated',
    { type: 'status_page', id },
    `Edited status page "${page.title}"${publishing}`,
  );
  publishChange(deps, 'updated', id);
  return page;
}
