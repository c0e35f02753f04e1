import type { Config } from '../../config/config.js';
import { systemContext } from '../../domain/actor.js';
import { openDatabase } from '../../db/database.js';
import { repositories } from '../../db/repositories/index.js';
import { systemClock } from '../../lib/clock.js';
import { CredentialRevocations } from '../../lib/credential-revocations.js';
import { SecretBox } from '../../lib/crypto.js';
import { EventHub } from '../../lib/event-hub.js';
import { loadSecretKey } from '../../lib/secret-key.js';
import { AppError } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import { AuthCache } from '../auth/cache.js';
import type { ServiceDeps } from '../deps.js';
import { issueResetLink, setPasswordFromServer } from './password-reset.js';

export type ServerReset =
  { kind: 'link'; email: string; link: string } | { kind: 'password'; email: string };

/**
 * `pagewatch reset-password` on the server (ADR 34): reads the database the server's own
 * environment names, so it works for an owner who has neither mail nor a way to sign in.
 * Sessions it ends are gone at once; a running server's 10 s auth cache may serve them briefly.
 */
export async function resetOnServer(
  config: Config,
  email: string,
  how: { password: string } | { base: string | null },
): Promise<ServerReset> {
  const instanceKey = loadSecretKey(config.secret, config.dataDir);
  const database = await openDatabase(config.database);
  try {
    const deps: ServiceDeps = {
      repos: repositories(database),
      hub: new EventHub(),
      clock: systemClock,
      trigger: null,
      secrets: new SecretBox(instanceKey),
      instanceKey,
      authCache: new AuthCache(),
      revocations: new CredentialRevocations(),
      setupToken: '',
      publicUrl: config.publicUrl ?? null,
    };
    if ('password' in how) {
      const user = await setPasswordFromServer(deps, email.trim().toLowerCase(), how.password);
      return { kind: 'password', email: user.email };
    }
    const user = await deps.repos.users.findByEmail(email.trim().toLowerCase());
    if (!user) throw new AppError('not_found', `No account has the email ${email}`);
    const link = await issueResetLink(
      deps,
      user,
      { id: null, label: 'system' },
      config.publicUrl ?? how.base,
    );
    await audit(
      deps,
      systemContext,
      'auth.password_reset_link_issued',
      { type: 'user', id: user.id },
      `One-hour reset link for ${user.email} printed on the server (pagewatch reset-password)`,
    );
    return { kind: 'link', email: user.email, link };
  } finally {
    await database.close();
  }
}
