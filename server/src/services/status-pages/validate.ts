import type { FieldError } from '@pagewatch/contract';
import type { StatusPageValues } from '../../db/repositories/status-pages.js';
import { UniqueFieldTaken } from '../../db/repositories/status-pages.js';
import { AppError, validationFailed } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

/** What zod cannot know: the monitors and the email channel named must exist. */
export async function checkReferences(deps: ServiceDeps, page: StatusPageValues): Promise<void> {
  const ids = page.sections.flatMap((s) => s.components.map((c) => c.monitorId));
  const found = await deps.repos.statusPages.existingMonitors(ids);
  const errors: FieldError[] = [];
  page.sections.forEach((s, si) =>
    s.components.forEach((c, ci) => {
      if (!found.has(c.monitorId))
        errors.push({
          path: `sections.${si}.components.${ci}.monitorId`,
          message: `There is no monitor ${c.monitorId}`,
          code: 'not_found',
        });
    }),
  );
  const channelId = page.subscriptions.emailChannelId;
  if (channelId !== null && !(await deps.repos.statusPages.isEmailChannel(channelId)))
    errors.push({
      path: 'subscriptions.emailChannelId',
      message: `There is no email channel ${channelId}`,
      code: 'not_found',
    });
  if (errors.length > 0) throw validationFailed(errors);
}

const takenMessages = {
  slug: 'Another status page already uses this slug',
  customDomain: 'Another status page already answers on this domain',
} as const;

/** Turns a unique-field collision into a 409 naming the field; other errors pass through. */
export function asConflict(err: unknown): never {
  if (err instanceof UniqueFieldTaken) {
    const message = takenMessages[err.field];
    throw new AppError('conflict', message, [{ path: err.field, message, code: 'taken' }]);
  }
  throw err;
}
