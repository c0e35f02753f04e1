import { PROBE_PROTOCOL_VERSION } from '@pagewatch/contract';
import type { ProbePrincipal } from '../../db/repositories/locations.js';
import { sha256 } from '../../lib/crypto.js';
import { AppError, unauthenticated } from '../../lib/errors.js';
import type { ServiceDeps } from '../deps.js';

export interface ProbeCaller extends ProbePrincipal {
  tokenHash: string;
}

/**
 * Refuses a protocol version this server does not speak, naming both, so an old or new probe
 * says what to upgrade instead of failing on a shape.
 */
export function checkProtocol(header: string | string[] | undefined): void {
  const sent = Array.isArray(header) ? header[0] : header;
  if (sent === undefined) {
    throw new AppError(
      'validation_failed',
      `Send the header Pagewatch-Probe-Protocol: ${PROBE_PROTOCOL_VERSION} (this server speaks probe protocol ${PROBE_PROTOCOL_VERSION})`,
    );
  }
  if (sent.trim() !== String(PROBE_PROTOCOL_VERSION)) {
    throw new AppError(
      'validation_failed',
      `This server speaks probe protocol ${PROBE_PROTOCOL_VERSION}, the probe sent ${sent.slice(0, 20)}: run the probe of the server's version (npx pagewatch@<server version> probe)`,
    );
  }
}

/** The probe a bearer token belongs to; a wrong, expired or revoked token is a 401. */
export async function authenticateProbe(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  authorization: string | undefined,
): Promise<ProbeCaller> {
  const [scheme, token] = (authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token?.startsWith('pwp_')) {
    throw unauthenticated('Send the probe token as Authorization: Bearer pwp_…');
  }
  const tokenHash = sha256(token.trim());
  const principal = await deps.repos.locations.principal(tokenHash, deps.clock.now());
  if (!principal) {
    throw unauthenticated(
      'This probe token is not valid (wrong, revoked or past its rotation overlap); create a new one in Settings → Locations',
    );
  }
  return { ...principal, tokenHash };
}

/** Whether the caller's token still works (revocation closes a stream within seconds). */
export async function stillValid(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
  caller: ProbeCaller,
): Promise<boolean> {
  return (await deps.repos.locations.principal(caller.tokenHash, deps.clock.now())) !== null;
}
