import type { StatusPage, StatusPageList } from '@pagewatch/contract';
import type { StoredLogo } from '../../db/repositories/status-pages.js';
import { notFound } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export async function getStatusPage(deps: ServiceDeps, id: number): Promise<StatusPage> {
  const page = await deps.repos.statusPages.findById(id);
  if (!page) throw notFound('Status page');
  return page;
}

export async function listStatusPages(deps: ServiceDeps): Promise<StatusPageList> {
  return { items: await deps.repos.statusPages.list() };
}

/** The page's logo for the editor; 404 when the page or its logo is missing. */
export async function getStatusPageLogo(deps: ServiceDeps, id: number): Promise<StoredLogo> {
  const logo = await deps.repos.statusPages.getLogo(id);
  if (!logo) throw notFound('Logo');
  return logo;
}
