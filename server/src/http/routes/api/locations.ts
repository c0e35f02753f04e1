import {
  CoverageNotice,
  LocationInput,
  LocationView,
  ProbeInput,
  ProbeRotateInput,
  ProbeTokenCreated,
} from '@pagewatch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { coverageNotice } from '../../../services/coverage/notice.js';
import type { ServiceDeps } from '../../../services/deps.js';
import { listLocations } from '../../../services/locations/list.js';
import {
  createLocation,
  deleteLocation,
  updateLocation,
} from '../../../services/locations/manage.js';
import { createProbe, revokeProbe, rotateProbeToken } from '../../../services/locations/probes.js';
import type { ApiRegistry } from '../../route.js';

const LocationIdParams = z.object({ id: z.string().min(1).max(60) });
const ProbeIdParams = z.object({ id: z.coerce.number().int().positive() });

/** Where a probe reaches this server: the configured public URL, else how this request came. */
const serverUrlOf = (deps: ServiceDeps, request: FastifyRequest): string =>
  deps.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;

/**
 * Settings → Locations (issue 16, ADR 56): locations are read by everyone who picks them for a
 * monitor; adding, renaming and deleting them and their probes' tokens is the admins'.
 */
export function locationRoutes(app: FastifyInstance, api: ApiRegistry, deps: ServiceDeps): void {
  api.add(app, {
    method: 'GET',
    url: '/api/v1/locations',
    access: 'admin',
    tag: 'locations',
    summary: 'Locations with their probes: online, version, last heartbeat, clock, load, spool',
    responses: { 200: z.object({ items: z.array(LocationView) }) },
    handler: async () => ({ items: await listLocations(deps) }),
  });
  api.add(app, {
    method: 'GET',
    url: '/api/v1/locations/coverage',
    // The admins' notice (ADR 73), like the offline locations it usually follows from.
    access: 'admin',
    tag: 'locations',
    summary: 'Monitors unknown because too few of their locations report, and which are silent',
    description:
      'One notice for all monitors: `monitors` counts those UNKNOWN for lack of fresh results, ' +
      '`locations` names the silent ones with how many of those monitors each leaves; ' +
      '`monitors` 0 means coverage is whole.',
    responses: { 200: CoverageNotice },
    handler: async () => coverageNotice(deps),
  });
  api.add(app, {
    method: 'POST',
    url: '/api/v1/locations',
    access: 'admin',
    tag: 'locations',
    summary: 'Add a location (a pool of probes)',
    body: LocationInput,
    responses: { 201: LocationView },
    handler: async ({ body, ctx }) => createLocation(deps, ctx, body),
  });
  api.add(app, {
    method: 'PUT',
    url: '/api/v1/locations/:id',
    access: 'admin',
    tag: 'locations',
    summary: 'Rename a location or change its region and coordinates (local included)',
    params: LocationIdParams,
    body: LocationInput,
    responses: { 200: LocationView },
    handler: async ({ params, body, ctx }) => updateLocation(deps, ctx, params.id, body),
  });
  api.add(app, {
    method: 'DELETE',
    url: '/api/v1/locations/:id',
    access: 'admin',
    tag: 'locations',
    summary: 'Delete a location with its probes and tokens (not local)',
    params: LocationIdParams,
    errors: [409],
    responses: { 204: null },
    handler: async ({ params, ctx }) => deleteLocation(deps, ctx, params.id),
  });
  api.add(app, {
    method: 'POST',
    url: '/api/v1/locations/:id/probes',
    access: 'admin',
    tag: 'locations',
    summary: 'Add a probe to a location: its token is shown once, with the command to run',
    params: LocationIdParams,
    body: ProbeInput,
    errors: [409],
    responses: { 201: ProbeTokenCreated },
    handler: async ({ params, body, ctx, request }) =>
      createProbe(deps, ctx, params.id, body, serverUrlOf(deps, request)),
  });
  api.add(app, {
    method: 'POST',
    url: '/api/v1/probes/:id/rotate',
    access: 'admin',
    tag: 'locations',
    summary: 'A new token for a probe; the old one keeps working for the overlap',
    params: ProbeIdParams,
    body: ProbeRotateInput,
    responses: { 201: ProbeTokenCreated },
    handler: async ({ params, body, ctx, request }) =>
      rotateProbeToken(deps, ctx, params.id, body, serverUrlOf(deps, request)),
  });
  api.add(app, {
    method: 'DELETE',
    url: '/api/v1/probes/:id',
    access: 'admin',
    tag: 'locations',
    summary: 'Revoke a probe and its tokens; its connection is closed within 5 s',
    params: ProbeIdParams,
    responses: { 204: null },
    handler: async ({ params, ctx }) => revokeProbe(deps, ctx, params.id),
  });
}
