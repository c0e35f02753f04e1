import type { MessageTemplate } from '@pagewatch/contract';
import type { StoredContactMethod } from '../db/repositories/contact-methods.js';
import type { StoredChannel } from '../db/repositories/deliveries.js';
import type { SecretBox } from '../lib/crypto.js';
import { ChannelError, type ChannelTarget } from './channel.js';

const defaultTemplate: MessageTemplate = { title: '', body: '' };

function open(box: SecretBox, sealed: string | null): Record<string, unknown> {
  if (sealed === null) return {};
  try {
    return JSON.parse(box.open(sealed)) as Record<string, unknown>;
  } catch {
    throw new ChannelError('The secrets cannot be opened (instance key changed?)', true);
  }
}

/**
 * A person's contact method as a channel target, so the existing senders deliver to it (ADR 60):
 * the kind's own settings, or for mail the system mail channel's server with the person's
 * address as the only recipient.
 */
export function contactTarget(
  method: StoredContactMethod,
  box: SecretBox,
  systemMail: StoredChannel | null,
  template: MessageTemplate = defaultTemplate,
): ChannelTarget {
  const name = `${method.userName}${method.label ? ` (${method.label})` : ''}`;
  if (method.kind === 'email') {
    if (!systemMail || systemMail.kind !== 'email' || !systemMail.enabled)
      throw new ChannelError(
        'No system mail channel is set (Settings → General → System mail)',
        false,
      );
    return {
      id: -method.id,
      name,
      kind: 'email',
      config: { ...systemMail.config, to: [String(method.config.address)] },
      secrets: open(box, systemMail.sealedSecrets),
      template,
    };
  }
  return {
    id: -method.id,
    name,
    kind: method.kind,
    config: method.config,
    secrets: open(box, method.sealedSecrets),
    template,
  };
}
