import type { ServiceDeps } from '../deps.js';

export const listAudit = (deps: ServiceDeps, limit: number, before?: number, action?: string) =>
  deps.repos.audit.page(limit, before, action);
