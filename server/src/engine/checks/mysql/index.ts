import type net from 'node:net';
import type tls from 'node:tls';
import mysql, { type Connection } from 'mysql2';
import type { CheckContext, CheckRun } from '../types.js';
import {
  runDatabaseCheck,
  type DatabaseAnswer,
  type DatabaseSpec,
  type SessionTools,
  valueText,
} from '../database-session.js';
import { CheckFailure, untilStopped } from '../socket.js';

export interface MysqlCheckSpec extends DatabaseSpec {
  /** '' selects no default database. */
  database: string;
  /** '' runs `SELECT 1`. */
  query: string;
}

/**
 * Connects, authenticates and runs the query in a read-only session whose statements are
 * bounded by the check's timeout (MySQL's max_execution_time, MariaDB's max_statement_time);
 * never throws, always closes the connection.
 */
export function runMysqlCheck(spec: MysqlCheckSpec, ctx: CheckContext): Promise<CheckRun> {
  return runDatabaseCheck(
    spec,
    ctx,
    (socket, tools) => session(spec, socket, tools),
    mapMysqlError,
  );
}

/** The client's private TLS step, wrapped so the certificate is judged before the password. */
interface Upgradable {
  stream: net.Socket;
  startTLS(onSecure: (err?: Error) => void): void;
}

async function session(
  spec: MysqlCheckSpec,
  socket: net.Socket,
  tools: SessionTools,
): Promise<DatabaseAnswer> {
  const { ca } = tools.tlsOptions;
  const connection: Connection = mysql.createConnection({
    stream: socket,
    host: tools.host,
    port: spec.port,
    user: spec.username,
    password: spec.password,
    ...(spec.database === '' ? {} : { database: spec.database }),
    ...(spec.tls
      ? { ssl: { rejectUnauthorized: false, ...(ca ? { ca: ca as string[] } : {}) } }
      : {}),
    rowsAsArray: true,
    // Every value as the server's text, so the comparison is with what the mysql client prints.
    typeCast: (field) => field.string(),
    connectTimeout: spec.timeoutMs,
    multipleStatements: false,
  });
  connection.on('error', () => undefined);
  if (spec.tls) {
    const upgradable = connection as unknown as Upgradable;
    const startTLS = upgradable.startTLS.bind(upgradable);
    upgradable.startTLS = (onSecure) => {
      startTLS((err) => {
        const secure = upgradable.stream as tls.TLSSocket;
        // The client relabels the error it is given; the check keeps its own failure.
        const refused = tools.verify(secure);
        onSecure(err ?? (refused ? new Error(refused.message) : undefined));
      });
      tools.secured(upgradable.stream as tls.TLSSocket);
    };
  }
  const query = (sql: string): Promise<unknown[][]> =>
    untilStopped(
      tools.run,
      new Promise<unknown[][]>((resolve, reject) => {
        connection.query(sql, (err, rows) => {
          if (err) reject(err);
          else resolve(Array.isArray(rows) ? (rows as unknown[][]) : []);
        });
      }),
    );
  try {
    await untilStopped(
      tools.run,
      new Promise<void>((resolve, reject) => {
        connection.connect((err) => (err ? reject(err) : resolve()));
      }),
    );
    // A monitor's query must never change data, nor run past the check.
    await query('SET SESSION TRANSACTION READ ONLY');
    // Set by the client from the server's greeting.
    const mariadb = (connection as unknown as { _isMariaDB?: boolean })._isMariaDB === true;
    await query(
      mariadb
        ? `SET SESSION max_statement_time = ${Math.max(0.001, spec.timeoutMs / 1000)}`
        : `SET SESSION max_execution_time = ${Math.max(1, Math.round(spec.timeoutMs))}`,
    );
    const text = spec.query === '' ? 'SELECT 1' : spec.query;
    const rows = await query(text);
    const first = rows[0]?.[0];
    return {
      asked: text,
      value: valueText(first),
      present: first !== undefined,
    };
  } finally {
    connection.destroy();
    socket.destroy();
  }
}

const AUTH_CODES = new Set([
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_ACCESS_DENIED_NO_PASSWORD_ERROR',
  'ER_NOT_SUPPORTED_AUTH_MODE',
  'ER_HOST_NOT_PRIVILEGED',
]);
/** MySQL's max_execution_time and MariaDB's max_statement_time ending a statement. */
const TIMEOUT_CODES = new Set(['ER_QUERY_TIMEOUT', 'ER_STATEMENT_TIMEOUT', 'ER_QUERY_INTERRUPTED']);

function mapMysqlError(err: unknown, tools: SessionTools): CheckFailure | null {
  if (!(err instanceof Error)) return null;
  const at = `${tools.host}:${tools.run.endpoint.port}`;
  const e = err as Error & { code?: unknown; sqlState?: unknown; errno?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'HANDSHAKE_NO_SSL_SUPPORT') {
    return new CheckFailure('tls_handshake_failed', `${at} does not accept TLS connections`);
  }
  if (AUTH_CODES.has(code)) {
    return new CheckFailure('auth_failed', `MySQL at ${at} refused the login: ${e.message}`);
  }
  if (TIMEOUT_CODES.has(code) || e.errno === 1969 || e.errno === 3024) {
    return new CheckFailure('timeout', `The query was stopped at the timeout: ${e.message}`);
  }
  if (code === 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION') {
    return new CheckFailure(
      'query_failed',
      `The query tried to write; monitors run read-only (${e.message})`,
    );
  }
  if (typeof e.sqlState === 'string' && e.sqlState !== '') {
    return new CheckFailure('query_failed', `The query failed: ${e.message} (${code})`);
  }
  if (code.startsWith('PROTOCOL_') || code.startsWith('HANDSHAKE_')) {
    return new CheckFailure(
      'protocol_error',
      `${at} did not speak the MySQL protocol: ${e.message}`,
    );
  }
  return null;
}
