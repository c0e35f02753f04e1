import type { LocationView } from '@pagewatch/contract';
import type { ServiceDeps } from '../deps.js';
import { presentLocation, presentProbe } from './present.js';

/** Every location with its probes (tokens by prefix only), `local` first. */
export async function listLocations(
  deps: Pick<ServiceDeps, 'repos' | 'clock'>,
): Promise<LocationView[]> {
  const now = deps.clock.now();
  const [locations, probes] = await Promise.all([
    deps.repos.locations.list(),
    deps.repos.locations.probes(),
  ]);
  const tokens = await deps.repos.locations.tokens(
    probes.map((p) => p.id),
    now,
  );
  const views = probes.map((p) => presentProbe(p, tokens, now));
  const ordered = [
    ...locations.filter((l) => l.id === 'local'),
    ...locations.filter((l) => l.id !== 'local'),
  ];
  return ordered.map((l) =>
    presentLocation(
      l,
      views.filter((p) => p.locationId === l.id),
    ),
  );
}
