/**
 * The two messages of grpc.health.v1 (grpc/grpc-proto, grpc/health/v1/health.proto), encoded by
 * hand: `HealthCheckRequest { string service = 1; }` and
 * `HealthCheckResponse { ServingStatus status = 1; }`. Two fields do not justify a protobuf
 * runtime in every check.
 */

export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

export const servingStatusNames = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A length-prefixed gRPC message (uncompressed) carrying the request for `service`. */
export function healthRequestFrame(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  // proto3 leaves a field with its default value ('') out.
  const body =
    name.length === 0
      ? Buffer.alloc(0)
      : Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name]);
  const frame = Buffer.alloc(5 + body.length);
  frame.writeUInt8(0, 0);
  frame.writeUInt32BE(body.length, 1);
  body.copy(frame, 5);
  return frame;
}

/**
 * The serving status in a response body (one length-prefixed message); null when the body is
 * not one. A missing field is its default, UNKNOWN (0); unknown fields are skipped.
 */
export function parseHealthResponse(body: Buffer): number | null {
  if (body.length < 5 || body.readUInt8(0) !== 0) return null;
  const length = body.readUInt32BE(1);
  if (body.length < 5 + length) return null;
  const msg = body.subarray(5, 5 + length);
  let status = 0;
  let i = 0;
  const readVarint = (): number | null => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (i >= msg.length) return null;
      const b = msg[i++]!;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
    return null;
  };
  while (i < msg.length) {
    const key = readVarint();
    if (key === null) return null;
    const wire = key & 7;
    if (wire === 0) {
      const v = readVarint();
      if (v === null) return null;
      if (key >>> 3 === 1) status = v;
    } else if (wire === 2) {
      const len = readVarint();
      if (len === null) return null;
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else return null;
  }
  return i === msg.length ? status : null;
}
