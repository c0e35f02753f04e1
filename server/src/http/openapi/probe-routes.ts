import {
  PROBE_MAX_BATCH,
  PROBE_MAX_BATCH_BYTES,
  ProbeHeartbeat,
  ProbeHeartbeatAnswer,
  ProbeResultAnswer,
  ProbeResultBatch,
} from '@pagewatch/contract';
import { documented, text, type DocumentedRoute } from './documented.js';
import type { SchemaComponents } from './schemas.js';

const auth =
  'The probe token (`Authorization: Bearer pwp_…`, Settings → Locations) is the credential, and ' +
  'every request names the protocol in `Pagewatch-Probe-Protocol: 1`; another version is refused ' +
  'with 400 naming the one this server speaks. See docs/probes.md.';

const protocolHeader = {
  name: 'Pagewatch-Probe-Protocol',
  in: 'header',
  required: true,
  description: 'The probe protocol version: 1.',
  schema: { type: 'string', const: '1' },
};

/** The remote probe's protocol, version 1 (ADR 56). */
export function probeProtocolRoutes(s: SchemaComponents): DocumentedRoute[] {
  return [
    documented('get', '/api/probe/v1/assignment', {
      id: 'streamProbeAssignment',
      tag: 'probe-protocol',
      summary: "A probe's assignment: a snapshot, then changes, as NDJSON",
      description: `${auth} One JSON object per line (\`hello\`, \`snapshot\`, \`upsert\`, \`remove\`, \`ping\` every 5 s, \`closing\`), each with the server's clock in \`serverTime\`. The stream ends within seconds of the token's revocation.`,
      parameters: [protocolHeader],
      responses: {
        200: text('application/x-ndjson', 'One `ProbeStreamLine` per line; the stream stays open.'),
      },
      problems: [400, 401],
    }),
    documented('post', '/api/probe/v1/results', {
      id: 'postProbeResults',
      tag: 'probe-protocol',
      summary: 'A batch of results keyed by (monitor, location, round), recorded once',
      description: `${auth} At most ${PROBE_MAX_BATCH} items and ${PROBE_MAX_BATCH_BYTES / (1024 * 1024)} MiB. A batch with any item for a monitor not checked at the probe's location, or a time off the monitor's round grid, is refused whole (400 naming the items) and nothing is recorded. \`replayed\` batches (a spool after an outage) and late items go to history only.`,
      parameters: [protocolHeader],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: s.ref(ProbeResultBatch, 'input') } },
      },
      responses: {
        200: {
          description: 'Recorded (duplicates counted once).',
          content: { 'application/json': { schema: s.ref(ProbeResultAnswer, 'output') } },
        },
      },
      problems: [400, 401, 413, 503],
    }),
    documented('post', '/api/probe/v1/heartbeat', {
      id: 'postProbeHeartbeat',
      tag: 'probe-protocol',
      summary: "A probe's heartbeat: version, load, lateness, spool depth and clock offset",
      description: `${auth} An offset over 2 s is a warning shown with the probe, never a refusal.`,
      parameters: [protocolHeader],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: s.ref(ProbeHeartbeat, 'input') } },
      },
      responses: {
        200: {
          description: "Stored; the answer carries the server's clock.",
          content: { 'application/json': { schema: s.ref(ProbeHeartbeatAnswer, 'output') } },
        },
      },
      problems: [400, 401],
    }),
  ];
}
