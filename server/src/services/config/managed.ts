import {
  configKinds,
  type ConfigDetachInput,
  type ConfigKind,
  type ConfigManagedList,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { conflict, notFound } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

const what: Record<ConfigKind, string> = {
  channels: 'Notification channel',
  monitors: 'Monitor',
  statusPages: 'Status page',
  maintenance: 'Maintenance window',
  slos: 'SLO',
};

const auditType: Record<ConfigKind, string> = {
  channels: 'notification_channel',
  monitors: 'monitor',
  statusPages: 'status_page',
  maintenance: 'maintenance',
  slos: 'slo',
};

/** The resources configuration files manage, by kind: the UI shows them read-only. */
export async function listManaged(deps: ServiceDeps): Promise<ConfigManagedList> {
  const out: ConfigManagedList = {
    channels: [],
    monitors: [],
    statusPages: [],
    maintenance: [],
    slos: [],
  };
  for (const kind of configKinds) {
    for (const mark of await deps.repos.configKeys.marks(kind)) {
      if (mark.managed && mark.key !== null) out[kind].push({ id: mark.id, key: mark.key });
    }
  }
  return out;
}

/**
 * Hands a managed resource back to the UI (ADR 28). It keeps its key: a later apply whose files
 * still name it takes it back, so the files should drop it too.
 */
export async function detachResource(
  deps: ServiceDeps,
  ctx: RequestContext,
  { kind, id }: ConfigDetachInput,
): Promise<void> {
  const mark = (await deps.repos.configKeys.marks(kind)).find((m) => m.id === id);
  if (!mark) throw notFound(what[kind]);
  if (!mark.managed) throw conflict(`${what[kind]} ${id} is not managed by configuration files`);
  await deps.repos.configKeys.detach(kind, id);
  await audit(
    deps,
    ctx,
    'config.detached',
    { type: auditType[kind], id },
    `Detached "${mark.key ?? id}" from configuration files; the UI manages it now`,
  );
}
