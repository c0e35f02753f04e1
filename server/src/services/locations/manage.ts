import {
  LOCAL_LOCATION_ID,
  LocationInput as LocationInputSchema,
  type LocationInput,
  type LocationView,
} from '@pagewatch/contract';
import type { RequestContext } from '../../domain/actor.js';
import { conflict, notFound, validationFailed } from '../../lib/errors.js';
import { audit } from '../audit/record.js';
import type { ServiceDeps } from '../deps.js';
import { listLocations } from './list.js';

type Deps = Pick<ServiceDeps, 'repos' | 'clock'>;

/** A readable id from the name (`eu-west`), kept when the location is renamed. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return slug === '' ? 'location' : slug;
}

async function freeId(deps: Deps, name: string): Promise<string> {
  const base = slugOf(name);
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (id !== LOCAL_LOCATION_ID && !(await deps.repos.locations.find(id))) return id;
  }
}

async function refuseTakenName(deps: Deps, name: string, self: string | null): Promise<void> {
  const other = await deps.repos.locations.findByName(name);
  if (other && other.id !== self) {
    throw validationFailed([
      { path: 'name', message: `Another location is called "${name}"`, code: 'taken' },
    ]);
  }
}

async function viewOf(deps: Deps, id: string): Promise<LocationView> {
  const view = (await listLocations(deps)).find((l) => l.id === id);
  if (!view) throw notFound('Location');
  return view;
}

export async function createLocation(
  deps: Deps,
  ctx: RequestContext,
  raw: LocationInput,
): Promise<LocationView> {
  const input = LocationInputSchema.parse(raw);
  await refuseTakenName(deps, input.name, null);
  const id = await freeId(deps, input.name);
  await deps.repos.locations.insert({
    id,
    name: input.name,
    region: input.region ?? null,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    createdAt: deps.clock.now(),
  });
  await audit(
    deps,
    ctx,
    'location.created',
    { type: 'location', id },
    `Added location "${input.name}"`,
  );
  return viewOf(deps, id);
}

/** Renames or relabels a location (`local` included). */
export async function updateLocation(
  deps: Deps,
  ctx: RequestContext,
  id: string,
  raw: LocationInput,
): Promise<LocationView> {
  const input = LocationInputSchema.parse(raw);
  const before = await deps.repos.locations.find(id);
  if (!before) throw notFound('Location');
  await refuseTakenName(deps, input.name, id);
  await deps.repos.locations.update(id, {
    name: input.name,
    region: input.region ?? null,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
  });
  const renamed = before.name === input.name ? '' : ` (was "${before.name}")`;
  await audit(
    deps,
    ctx,
    'location.updated',
    { type: 'location', id },
    `Changed location "${input.name}"${renamed}`,
  );
  return viewOf(deps, id);
}

/** Deletes a remote location with its probes and tokens; `local` stays. */
export async function deleteLocation(deps: Deps, ctx: RequestContext, id: string): Promise<void> {
  if (id === LOCAL_LOCATION_ID) {
    throw conflict('The local location is the built-in scheduler; rename it instead');
  }
  const before = await deps.repos.locations.find(id);
  if (!before) throw notFound('Location');
  await deps.repos.locations.remove(id);
  await audit(
    deps,
    ctx,
    'location.deleted',
    { type: 'location', id },
    `Deleted location "${before.name}"`,
  );
}
