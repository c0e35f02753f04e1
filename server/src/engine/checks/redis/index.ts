import type net from 'node:net';
import tls from 'node:tls';
import { AbstractConnector, Redis } from 'ioredis';
import { splitRedisCommand } from '@pagewatch/contract';
import type { CheckContext, CheckRun } from '../types.js';
import {
  runDatabaseCheck,
  type DatabaseAnswer,
  type DatabaseSpec,
  type SessionTools,
  valueText,
} from '../database-session.js';
import { CheckFailure, untilStopped, waitFor } from '../socket.js';

export interface RedisCheckSpec extends DatabaseSpec {
  database: number;
  /** One of the contract's read commands; '' runs PING. */
  command: string;
}

/**
 * Connects (TLS, when asked, is ours: Redis has no in-protocol upgrade), authenticates, selects
 * the database and runs the read command; never throws, always closes the connection. Redis has
 * no read-only session for a plain client, so the contract allows read commands only.
 */
export function runRedisCheck(spec: RedisCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  return runDatabaseCheck(
    spec,
    ctx,
    (socket, tools) => session(spec, socket, tools),
    mapRedisError,
  );
}

/** Hands ioredis the stream this check connected (and secured), instead of opening its own. */
function givenStream(stream: net.Socket) {
  return class GivenStream extends AbstractConnector {
    constructor() {
      super(0);
    }
    connect() {
      this.connecting = true;
      this.stream = stream;
      return Promise.resolve(stream);
    }
  };
}

async function session(
  spec: RedisCheckSpec,
  socket: net.Socket,
  tools: SessionTools,
): Promise<DatabaseAnswer> {
  let stream: net.Socket = socket;
  if (spec.tls) {
    const secure = tools.secured(tls.connect({ socket, ...tools.tlsOptions }));
    await waitFor(tools.run, secure, 'secureConnect');
    const failure = tools.verify(secure);
    if (failure !== null) throw failure;
    stream = secure;
  }
  // The first error the client reported (it reports a refused AUTH as an event, not a rejection).
  const seen: { error: Error | null } = { error: null };
  const client = new Redis({
    Connector: givenStream(stream),
    lazyConnect: true,
    // RESP2 and no client info: the fewest round trips, understood by every Redis version.
    protocol: 2,
    disableClientInfo: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    reconnectOnError: () => false,
    ...(spec.username === '' ? {} : { username: spec.username }),
    ...(spec.password === '' ? {} : { password: spec.password }),
    db: spec.database,
  });
  client.on('error', (err: Error) => {
    seen.error ??= err;
  });
  try {
    await untilStopped(tools.run, client.connect()).catch((err: unknown) => {
      throw seen.error ?? err;
    });
    // The client reports a refused AUTH or SELECT and carries on; the check must not.
    if (seen.error !== null) throw seen.error;
    const words = splitRedisCommand(spec.command === '' ? 'PING' : spec.command) ?? ['PING'];
    const [name = 'PING', ...args] = words;
    const reply = await untilStopped(tools.run, client.call(name, ...args)).catch(
      (err: unknown) => {
        throw seen.error ?? err;
      },
    );
    const first: unknown = Array.isArray(reply) ? reply[0] : reply;
    return {
      asked: words.join(' '),
      value: valueText(first),
      present: first !== undefined,
    };
  } finally {
    client.disconnect();
    stream.destroy();
    socket.destroy();
  }
}

function mapRedisError(err: unknown, tools: SessionTools): CheckFailure | null {
  if (!(err instanceof Error)) return null;
  const at = `${tools.host}:${tools.run.endpoint.port}`;
  const text = err.message;
  if (
    /^(WRONGPASS|NOAUTH)|invalid password|invalid username-password|AUTH <password> called without/i.test(
      text,
    )
  ) {
    return new CheckFailure('auth_failed', `Redis at ${at} refused the login: ${text}`);
  }
  if (err.name === 'ReplyError') {
    return new CheckFailure('query_failed', `The command failed: ${text}`);
  }
  if (/Connection is closed/i.test(text)) {
    return new CheckFailure('connection_reset', `Redis at ${at} closed the connection (${text})`);
  }
  return null;
}
