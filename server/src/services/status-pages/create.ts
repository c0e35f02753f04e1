import type { StatusPage } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import type { StatusPageValues } from '../../db/repositories/status-pages.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { publishChange } from './event.js';
import { asConflict, checkReferences } from './validate.js';

/** Creates a status page with its sections and components in one transaction. */
export async function createStatusPage(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: StatusPageValues,
): Promise<StatusPage> {
  await checkReferences(deps, input);
  const page = await deps.repos.statusPages.insert(input, deps.clock.now()).catch(asConflict);
  await audit(
    deps,
    ctx,
    'status_page.created',
    { type: 'status_page', id: page.id },
    `Created status page "${page.title}" (/status/${page.slug})`,
  );
  publishChange(deps, 'created', page.id);
  return page;
}
