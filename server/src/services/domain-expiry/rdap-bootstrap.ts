import { mkdirSync } from 'node:fs';
import {
  IANA_DNS_BOOTSTRAP_URL,
  type RdapBootstrapRefresh,
  type RdapBootstrapStatus,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import {
  BootstrapError,
  bootstrapInUse,
  parseBootstrap,
  writeRefreshedBootstrap,
} from '../../engine/checks/domain/bootstrap.js';
import { conflict, unavailable, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';

const TIMEOUT_MS = 20_000;
/** IANA's file is about 100 KB; anything far larger is not one. */
const MAX_BYTES = 8 * 1024 * 1024;

/** The bootstrap file domain expiry uses now: shipped or refreshed, its date and source. */
export function rdapBootstrapStatus(deps: Pick<ServiceDeps, 'dataDir'>): RdapBootstrapStatus {
  try {
    return { ...bootstrapInUse(deps.dataDir ?? null), defaultSource: IANA_DNS_BOOTSTRAP_URL };
  } catch (err) {
    // A refreshed file edited by hand, or a damaged install: say so rather than a bare 500.
    throw unavailable(
      `The RDAP bootstrap file in use cannot be read (${(err as Error).message}); refresh it`,
    );
  }
}

async function download(from: string): Promise<string> {
  try {
    const res = await fetch(from, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
    if (!res.ok) throw new Error(`it answered HTTP ${res.status}`);
    const text = await res.text();
    if (text.length > MAX_BYTES) throw new Error('the file is larger than 8 MiB');
    return text;
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (err as Error).message);
    throw unavailable(
      `Could not download ${from} (${why}). This server may have no internet access; the bootstrap file in use stays as it is.`,
    );
  }
}

/**
 * Downloads the bootstrap file (IANA's by default), checks it, and writes it into the data
 * directory with where it came from; every process reads it again within 5 minutes. Audited.
 */
export async function refreshRdapBootstrap(
  deps: Pick<ServiceDeps, 'dataDir' | 'repos' | 'clock'>,
  ctx: RequestContext,
  input: RdapBootstrapRefresh,
): Promise<RdapBootstrapStatus> {
  const dir = deps.dataDir ?? null;
  if (dir === null) throw conflict('This server has no data directory to keep a bootstrap file in');
  const text = await download(input.from);
  let tlds: number;
  try {
    tlds = parseBootstrap(text).services.size;
  } catch (err) {
    if (!(err instanceof BootstrapError)) throw err;
    throw validationFailed(
      [{ path: 'from', message: `Not an RDAP bootstrap file: ${err.message}`, code: 'custom' }],
      'Nothing was changed',
    );
  }
  mkdirSync(dir, { recursive: true });
  writeRefreshedBootstrap(dir, text, input.from, new Date(deps.clock.now()));
  await audit(
    deps,
    ctx,
    'settings.updated',
    { type: 'settings', id: null },
    `refreshed the RDAP bootstrap file (domain expiry) from ${input.from}: ${tlds} TLDs`,
  );
  return rdapBootstrapStatus(deps);
}
