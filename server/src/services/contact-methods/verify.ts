import { randomInt } from 'node:crypto';
import type { ContactMethod } from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { sha256 } from '../../lib/crypto.js';
import { notFound, validationFailed } from '../../lib/errors.js';
import { channelEgress } from '../../notify/address-guard.js';
import { channelRegistry } from '../../notify/channels/registry.js';
import { contactTarget } from '../../notify/contact-target.js';
import { testEvent } from '../../notify/message.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { systemMailChannel } from '../accounts/system-mail.js';
import { describeSendError, TEST_TIMEOUT_MS } from '../notification-channels/test.js';
import { ownMethod } from './manage.js';

/** A code is good for half an hour and five tries. */
export const CODE_TTL_MS = 30 * 60_000;

const hashOf = (id: number, code: string) => sha256(`contact-method:${id}:${code}`);

/**
 * Sends a fresh 6-digit code through the method with its kind's own sender (ADR 60): proof
 * that messages reach the person, not just that the settings parse. Only the hash is kept.
 */
export async function sendCode(
  deps: ServiceDeps,
  id: number,
): Promise<{ codeSent: boolean; sendError: string | null }> {
  const method = await deps.repos.contactMethods.forSend(id);
  if (!method) throw notFound('Contact method');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = deps.clock.now();
  await deps.repos.contactMethods.setCode(id, hashOf(id, code), now, now + CODE_TTL_MS);
  const mail = method.kind === 'email' ? await systemMailChannel(deps) : null;
  try {
    const target = contactTarget(
      method,
      deps.secrets,
      mail && {
        id: mail.id,
        name: mail.name,
        kind: mail.kind,
        config: mail.config,
        sealedSecrets: mail.sealedSecrets,
        template: mail.template,
        enabled: mail.enabled,
      },
      {
        title: `Pagewatch verification code: ${code}`,
        body:
          `Your code to verify this contact method for ${method.userName} is ${code}. ` +
          'Enter it in Pagewatch under My account → Contact methods; it expires in 30 minutes.',
      },
    );
    await channelRegistry[target.kind].send(target, testEvent(new Date(now)), {
      publicUrl: deps.publicUrl?.replace(/\/+$/, '') ?? null,
      timeoutMs: TEST_TIMEOUT_MS,
      signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      egress: channelEgress(deps.blockPrivateNotifyTargets ?? false),
      deliveryId: 0,
    });
    return { codeSent: true, sendError: null };
  } catch (err) {
    return { codeSent: false, sendError: describeSendError(err) };
  }
}

export async function resendCode(deps: ServiceDeps, ctx: RequestContext, id: number) {
  await ownMethod(deps, ctx, id);
  const sent = await sendCode(deps, id);
  return { method: await ownMethod(deps, ctx, id), ...sent };
}

const reasons = {
  no_code: 'No code is pending; send a new one',
  expired: 'The code expired or was tried too often; send a new one',
  wrong: 'That is not the code in the test message',
} as const;

/** Spends the code: right once → verified; wrong, expired or used → a field error saying which. */
export async function verifyContactMethod(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
  code: string,
): Promise<ContactMethod> {
  const m = await ownMethod(deps, ctx, id);
  const failed = await deps.repos.contactMethods.verify(id, hashOf(id, code), deps.clock.now());
  if (failed) {
    const message = reasons[failed];
    throw validationFailed([{ path: 'code', message, code: failed }], message);
  }
  await audit(
    deps,
    ctx,
    'contact_method.verified',
    { type: 'user', id: m.userId },
    `Verified a ${m.kind} contact method${m.label ? ` “${m.label}”` : ''}`,
  );
  return ownMethod(deps, ctx, id);
}
