import type { ApiKey, ApiKeyInput } from '@pagewatch/contract';
import { ApiKeyInput as ApiKeyInputSchema, atLeast } from '@pagewatch/contract';
import { actorRole, actorUserId, canAssign, type RequestContext } from '../../domain/actor.js';
import type { ApiKeyRecord } from '../../db/repositories/api-keys.js';
import { randomBase62, sha256 } from '../../lib/crypto.js';
import { forbidden, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const presentApiKey = (k: ApiKeyRecord): ApiKey => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  role: k.role,
  createdBy: { id: k.userId, name: k.userName },
  createdAt: new Date(k.createdAt).toISOString(),
  expiresAt: iso(k.expiresAt),
  lastUsedAt: iso(k.lastUsedAt),
});

const isAdmin = (ctx: RequestContext) => {
  const role = actorRole(ctx.actor);
  return role === 'admin' || role === 'owner';
};

/** SPEC §9: `pw_` and 40 base62 characters, shown once; only its SHA-256 is stored. */
export async function createApiKey(
  deps: ServiceDeps,
  ctx: RequestContext,
  raw: ApiKeyInput,
): Promise<{ apiKey: ApiKey; secret: string }> {
  const input = ApiKeyInputSchema.parse(raw);
  const role = actorRole(ctx.actor);
  const userId = actorUserId(ctx.actor);
  if (!role || userId === null) throw forbidden('Sign in to create API keys');
  // A key never acts above the person who made it.
  if (!atLeast(role, input.role)) {
    throw validationFailed([
      {
        path: 'role',
        message: `A key cannot have more rights than you (${role})`,
        code: 'role_too_high',
      },
    ]);
  }
  const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
  if (expiresAt !== null && expiresAt <= deps.clock.now()) {
    throw validationFailed([
      { path: 'expiresAt', message: 'Choose an expiry in the future', code: 'in_the_past' },
    ]);
  }
  const secret = `pw_${randomBase62(40)}`;
  const key = await deps.repos.apiKeys.insert(
    {
      name: input.name,
      prefix: secret.slice(0, 10),
      keyHash: sha256(secret),
      role: input.role,
      userId,
      expiresAt,
    },
    deps.clock.now(),
  );
  await audit(
    deps,
    ctx,
    'api_key.created',
    { type: 'api_key', id: key.id },
    `Created API key "${key.name}" (${key.prefix}…) as ${key.role}`,
  );
  return { apiKey: presentApiKey(key), secret };
}

/** Admins see every key; others see their own. */
export async function listApiKeys(deps: ServiceDeps, ctx: RequestContext): Promise<ApiKey[]> {
  const userId = actorUserId(ctx.actor);
  return (await deps.repos.apiKeys.list(isAdmin(ctx) ? undefined : (userId ?? -1))).map(
    presentApiKey,
  );
}

export async function revokeApiKey(
  deps: ServiceDeps,
  ctx: RequestContext,
  id: number,
): Promise<void> {
  const key = await deps.repos.apiKeys.findById(id);
  if (!key || (!isAdmin(ctx) && key.userId !== actorUserId(ctx.actor))) throw notFound('API key');
  if (key.userId !== actorUserId(ctx.actor)) {
    const creator = await deps.repos.users.findById(key.userId);
    if (creator && !canAssign(actorRole(ctx.actor)!, creator.role))
      throw forbidden("Only an owner can revoke an owner's API key");
  }
  await deps.repos.apiKeys.revoke(id, deps.clock.now());
  deps.authCache.clear();
  deps.revocations.publish({ userId: key.userId });
  await audit(
    deps,
    ctx,
    'api_key.revoked',
    { type: 'api_key', id },
    `Revoked API key "${key.name}" (${key.prefix}…)`,
  );
}
