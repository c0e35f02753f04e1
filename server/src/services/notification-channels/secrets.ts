import { channelSchemas, toFieldErrors, type ChannelKind } from '@pagewatch/contract';
import type { ChannelRecord } from '../../db/repositories/notification-channels.js';
import type { SecretBox } from '../../lib/crypto.js';
import { validationFailed } from '../../lib/errors.js';

type Secrets = Record<string, unknown>;

/** The stored secrets, opened; {} when none are set. */
export function openSecrets(record: Pick<ChannelRecord, 'sealedSecrets'>, box: SecretBox): Secrets {
  if (record.sealedSecrets === null) return {};
  return JSON.parse(box.open(record.sealedSecrets)) as Secrets;
}

/** Names of the secrets that hold a value, for the view (values never leave the server). */
export const secretNames = (secrets: Secrets): string[] =>
  Object.keys(secrets)
    .filter((k) => secrets[k] !== undefined && secrets[k] !== '')
    .sort();

/**
 * The secrets to store: the given ones over the kept ones (a secret left out of an update
 * keeps its value), checked against the kind's full schema so a kind change needs all of them.
 */
export function mergeSecrets(kind: ChannelKind, given: Secrets, kept: Secrets): Secrets {
  const merged = { ...kept, ...given };
  const parsed = channelSchemas[kind].secrets.safeParse(merged);
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error.issues).map((e) => ({
      ...e,
      path: e.path === '' ? 'secrets' : `secrets.${e.path}`,
    }));
    throw validationFailed(errors);
  }
  return parsed.data;
}

export function sealSecrets(secrets: Secrets, box: SecretBox): string | null {
  return secretNames(secrets).length === 0 ? null : box.seal(JSON.stringify(secrets));
}
