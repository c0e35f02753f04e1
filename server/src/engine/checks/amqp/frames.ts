/**
 * The little of AMQP 0-9-1 a health check speaks: the connection handshake, one channel and a
 * passive queue declare. Method frames only; nothing here carries content. See the AMQP 0-9-1
 * specification §4.2 (frames) and the class/method numbers of its XML definition.
 */

export const PROTOCOL_HEADER = Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]);
const FRAME_METHOD = 1;
const FRAME_HEARTBEAT = 8;
const FRAME_END = 0xce;

/** [class, method] of the methods used. */
export const M = {
  start: [10, 10],
  startOk: [10, 11],
  tune: [10, 30],
  tuneOk: [10, 31],
  open: [10, 40],
  openOk: [10, 41],
  close: [10, 50],
  closeOk: [10, 51],
  channelOpen: [20, 10],
  channelOpenOk: [20, 11],
  channelClose: [20, 40],
  queueDeclare: [50, 10],
  queueDeclareOk: [50, 11],
} as const;

export interface MethodFrame {
  channel: number;
  classId: number;
  methodId: number;
  args: Buffer;
}

export const is = (f: MethodFrame, m: readonly [number, number]): boolean =>
  f.classId === m[0] && f.methodId === m[1];

/** Thrown for bytes that are not AMQP 0-9-1 frames. */
export class FrameError extends Error {}

const shortstr = (text: string): Buffer => {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 255) throw new FrameError('A short string is longer than 255 bytes');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
};

const longstr = (bytes: Buffer): Buffer => {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(bytes.length);
  return Buffer.concat([size, bytes]);
};

const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** A field table of booleans and strings (client properties), as RabbitMQ reads them. */
function table(entries: Record<string, string | boolean | Record<string, boolean>>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(entries)) {
    parts.push(shortstr(name));
    if (typeof value === 'string') parts.push(Buffer.from('S'), longstr(Buffer.from(value)));
    else if (typeof value === 'boolean') parts.push(Buffer.from('t'), Buffer.from([value ? 1 : 0]));
    else parts.push(Buffer.from('F'), table(value));
  }
  return longstr(Buffer.concat(parts));
}

export function methodFrame(channel: number, m: readonly [number, number], args: Buffer): Buffer {
  const payload = Buffer.concat([u16(m[0]), u16(m[1]), args]);
  return Buffer.concat([
    Buffer.from([FRAME_METHOD]),
    u16(channel),
    u32(payload.length),
    payload,
    Buffer.from([FRAME_END]),
  ]);
}

export const startOk = (username: string, password: string): Buffer =>
  methodFrame(
    0,
    M.startOk,
    Buffer.concat([
      table({
        product: 'Pagewatch',
        // Asks RabbitMQ to say "ACCESS_REFUSED" with a Close instead of just hanging up.
        capabilities: { authentication_failure_close: true },
      }),
      shortstr('PLAIN'),
      longstr(Buffer.from(`\0${username}\0${password}`, 'utf8')),
      shortstr('en_US'),
    ]),
  );

/** Accepts the server's channel and frame limits; heartbeats off (the check is short). */
export const tuneOk = (tune: MethodFrame): Buffer =>
  methodFrame(0, M.tuneOk, Buffer.concat([tune.args.subarray(0, 6), u16(0)]));

export const open = (vhost: string): Buffer =>
  methodFrame(0, M.open, Buffer.concat([shortstr(vhost), shortstr(''), Buffer.from([0])]));

export const channelOpen = (): Buffer => methodFrame(1, M.channelOpen, shortstr(''));

/** queue.declare with passive set: never creates the queue, answers 404 when it is missing. */
export const declarePassive = (queue: string): Buffer =>
  methodFrame(
    1,
    M.queueDeclare,
    Buffer.concat([u16(0), shortstr(queue), Buffer.from([0x01]), u32(0)]),
  );

export const close = (): Buffer =>
  methodFrame(0, M.close, Buffer.concat([u16(200), shortstr('Goodbye'), u16(0), u16(0)]));

/** The mechanisms a connection.start offers (its longstr after the server properties). */
export function startMechanisms(start: MethodFrame): string[] {
  const propsLength = start.args.readUInt32BE(2);
  const at = 6 + propsLength;
  const length = start.args.readUInt32BE(at);
  return start.args
    .subarray(at + 4, at + 4 + length)
    .toString('utf8')
    .split(' ')
    .filter((m) => m !== '');
}

/** reply-code and reply-text of a connection.close or channel.close. */
export function closeReason(frame: MethodFrame): { code: number; text: string } {
  const code = frame.args.readUInt16BE(0);
  const length = frame.args.readUInt8(2);
  return { code, text: frame.args.subarray(3, 3 + length).toString('utf8') };
}

/** message-count and consumer-count of a queue.declare-ok. */
export function declareOk(frame: MethodFrame): { messages: number; consumers: number } {
  const at = 1 + frame.args.readUInt8(0);
  return { messages: frame.args.readUInt32BE(at), consumers: frame.args.readUInt32BE(at + 4) };
}

/**
 * Splits received bytes into method frames, skipping heartbeats. Throws FrameError on bytes
 * that cannot be AMQP (a wrong frame end, another protocol's header) so the caller can say so.
 */
export class FrameReader {
  private buffered = Buffer.alloc(0);

  push(chunk: Buffer): MethodFrame[] {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    const frames: MethodFrame[] = [];
    for (;;) {
      if (this.buffered.length >= 4 && this.buffered.subarray(0, 4).toString('latin1') === 'AMQP') {
        throw new FrameError('it answered with its own protocol header: another AMQP version');
      }
      if (this.buffered.length < 7) return frames;
      const type = this.buffered.readUInt8(0);
      const size = this.buffered.readUInt32BE(3);
      if (type !== FRAME_METHOD && type !== FRAME_HEARTBEAT && type !== 2 && type !== 3) {
        throw new FrameError(`its first bytes are not an AMQP frame (type ${type})`);
      }
      if (size > 1024 * 1024) throw new FrameError('it sent a frame larger than 1 MiB');
      if (this.buffered.length < 8 + size) return frames;
      if (this.buffered.readUInt8(7 + size) !== FRAME_END) {
        throw new FrameError('a frame did not end with the AMQP frame end');
      }
      const payload = this.buffered.subarray(7, 7 + size);
      const channel = this.buffered.readUInt16BE(1);
      this.buffered = this.buffered.subarray(8 + size);
      if (type !== FRAME_METHOD) continue;
      if (payload.length < 4) throw new FrameError('it sent a method frame without a method');
      frames.push({
        channel,
        classId: payload.readUInt16BE(0),
        methodId: payload.readUInt16BE(2),
        args: payload.subarray(4),
      });
    }
  }
}
