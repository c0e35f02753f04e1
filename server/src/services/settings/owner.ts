import type { DeleteAllData, DeletedData, OwnershipTransfer } from '@pagewatch/contract';
import { actorUserId, type RequestContext } from '../../domain/actor.js';
import { conflict, forbidden, validationFailed } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { audit } from '../audit/record.js';
import { assertNotThrottled, recordFailure } from '../auth/throttle.js';
import type { ServiceDeps } from '../deps.js';
import { settingsOf } from './read.js';

const notAnAdmin = () =>
  validationFailed([
    { path: 'userId', message: 'Choose an enabled admin of this instance', code: 'not_admin' },
  ]);

/**
 * The owner hands the instance to an admin and becomes an admin, after typing their password
 * again. Sessions stay; both people's cached rights are dropped, so the change applies to
 * their next request (API keys follow: a key never acts above its creator).
 */
export async function transferOwnership(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: OwnershipTransfer,
): Promise<void> {
  const myId = actorUserId(ctx.actor);
  if (myId === null) throw forbidden('Only the owner can transfer ownership');
  const me = await deps.repos.users.findById(myId);
  if (!me || me.role !== 'owner') throw forbidden('Only the owner can transfer ownership');
  // Counted like sign-in failures (SPEC §9), so a session left open cannot guess the password.
  const subjects = [`reauth:${myId}`];
  await assertNotThrottled(deps, subjects);
  if (!(await verifyPassword(me.passwordHash, input.password))) {
    await recordFailure(deps, subjects);
    throw validationFailed([
      { path: 'password', message: 'This is not your password', code: 'wrong_password' },
    ]);
  }
  if (input.userId === myId)
    throw validationFailed([
      { path: 'userId', message: 'You are the owner already', code: 'not_admin' },
    ]);
  const target = await deps.repos.users.findById(input.userId);
  if (!target || target.role !== 'admin' || target.disabled) throw notAnAdmin();
  const outcome = await deps.repos.settings.transferOwnership(myId, target.id, deps.clock.now());
  if (outcome === 'not_admin') throw notAnAdmin();
  if (outcome === 'not_owner') throw conflict('You are no longer the owner');
  for (const id of [myId, target.id]) {
    deps.authCache.evictUser(id);
    deps.revocations.publish({ userId: id });
  }
  await audit(
    deps,
    ctx,
    'settings.ownership_transferred',
    { type: 'user', id: target.id },
    `Ownership passed from ${me.email} to ${target.email}; ${me.email} is now an admin`,
  );
}

/**
 * Deletes every monitor (with its history), incident, status page, notification channel,
 * delivery and maintenance window, once the instance name is typed out. People, sessions,
 * API keys, settings and the audit log stay (docs/configuration.md).
 */
export async function deleteAllData(
  deps: ServiceDeps,
  ctx: RequestContext,
  input: DeleteAllData,
): Promise<DeletedData> {
  const store = settingsOf(deps);
  store.invalidate();
  const { instanceName } = await store.get('general');
  if (input.confirm.trim() !== instanceName)
    throw validationFailed(
      [{ path: 'confirm', message: `Type the instance name, ${instanceName}`, code: 'mismatch' }],
      'The confirmation does not match the instance name; nothing was deleted',
    );
  const rows = await deps.repos.instanceData.deleteAll();
  // The engine, the read models and the public pages hear of each removal as of a single one.
  for (const monitorId of rows.monitorIds)
    deps.hub.publish({ kind: 'monitor', change: 'deleted', monitorId });
  for (const pageId of rows.statusPageIds)
    deps.hub.publish({ kind: 'status-page', change: 'deleted', pageId });
  for (const windowId of rows.maintenanceIds)
    deps.hub.publish({ kind: 'maintenance', change: 'deleted', windowId });
  const deleted: DeletedData = {
    monitors: rows.monitorIds.length,
    incidents: rows.incidents,
    statusPages: rows.statusPageIds.length,
    notificationChannels: rows.notificationChannels,
    maintenanceWindows: rows.maintenanceIds.length,
  };
  await audit(
    deps,
    ctx,
    'settings.data_deleted',
    null,
    `Deleted all data: ${deleted.monitors} monitors with their history, ${deleted.incidents} incidents, ` +
      `${deleted.statusPages} status pages, ${deleted.notificationChannels} notification channels, ` +
      `${deleted.maintenanceWindows} maintenance windows`,
  );
  return deleted;
}
