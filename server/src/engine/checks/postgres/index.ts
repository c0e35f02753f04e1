import pg from 'pg';
import type { CheckContext, CheckRun } from '../types.js';
import {
  alreadyConnected,
  runDatabaseCheck,
  type DatabaseAnswer,
  type DatabaseSpec,
  type SessionTools,
  valueText,
} from '../database-session.js';
import { CheckFailure, untilStopped } from '../socket.js';

export interface PostgresCheckSpec extends DatabaseSpec {
  /** '' connects as the user's own database (PostgreSQL's default). */
  database: string;
  /** '' runs `SELECT 1`. */
  query: string;
}

/** Every value as the server's text, so the comparison is with what psql would print. */
const asText = { getTypeParser: () => (value: string) => value };

/**
 * Connects, authenticates and runs the query in a read-only session whose statements are
 * bounded by the check's timeout (both set in the startup message, so no extra round trip);
 * never throws, always closes the connection.
 */
export function runPostgresCheck(spec: PostgresCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  return runDatabaseCheck(spec, ctx, (socket, tools) => session(spec, socket, tools), mapPgError);
}

async function session(
  spec: PostgresCheckSpec,
  socket: import('node:net').Socket,
  tools: SessionTools,
): Promise<DatabaseAnswer> {
  const client = new pg.Client({
    stream: () => alreadyConnected(socket),
    host: tools.host,
    port: spec.port,
    user: spec.username,
    password: spec.password,
    ...(spec.database === '' ? {} : { database: spec.database }),
    ssl: spec.tls ? tools.tlsOptions : false,
    application_name: 'pagewatch',
    statement_timeout: spec.timeoutMs,
    // A monitor's query must never change data: every transaction of the session is read-only.
    options: '-c default_transaction_read_only=on',
  });
  // Errors after the end (the deadline destroying the socket) are already accounted for.
  client.on('error', () => undefined);
  if (spec.tls) {
    const connection = (client as unknown as { connection: PgConnection }).connection;
    connection.once('sslconnect', () => tools.secured(connection.stream));
  }
  try {
    await untilStopped(tools.run, client.connect());
    const text = spec.query === '' ? 'SELECT 1' : spec.query;
    const result = await untilStopped(
      tools.run,
      client.query<unknown[]>({ text, rowMode: 'array', types: asText }),
    );
    const first = result.rows[0]?.[0];
    return {
      asked: text,
      value: valueText(first),
      present: first !== undefined,
    };
  } finally {
    socket.destroy();
    void client.end().catch(() => undefined);
  }
}

interface PgConnection {
  stream: import('node:tls').TLSSocket;
  once(event: 'sslconnect', listener: () => void): unknown;
}

/** SQLSTATE classes and codes worth their own code; the rest of the server's errors are the query's. */
function mapPgError(err: unknown, tools: SessionTools): CheckFailure | null {
  const at = `${tools.host}:${tools.run.endpoint.port}`;
  if (!(err instanceof Error)) return null;
  if (/does not support SSL/.test(err.message)) {
    return new CheckFailure('tls_handshake_failed', `${at} does not accept TLS connections`);
  }
  const sqlState = (err as { code?: unknown }).code;
  if (typeof sqlState !== 'string' || !/^[0-9A-Z]{5}$/.test(sqlState)) return null;
  if (sqlState === '28P01' || sqlState === '28000') {
    return new CheckFailure('auth_failed', `PostgreSQL at ${at} refused the login: ${err.message}`);
  }
  if (sqlState === '57014') {
    return new CheckFailure('timeout', `The query was cancelled at the timeout: ${err.message}`);
  }
  if (sqlState === '25006') {
    return new CheckFailure(
      'query_failed',
      `The query tried to write; monitors run read-only (${err.message})`,
    );
  }
  if (sqlState === '3D000') {
    return new CheckFailure('query_failed', `PostgreSQL at ${at}: ${err.message}`);
  }
  return new CheckFailure(
    'query_failed',
    `The query failed: ${err.message} (SQLSTATE ${sqlState})`,
  );
}
