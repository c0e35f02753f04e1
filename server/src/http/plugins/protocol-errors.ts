import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ProblemType } from '@pagewatch/contract';
import type {
  ConnectionError,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { PROBLEM_JSON, problemOf, sendProblem } from './errors.js';

/** Longer addresses answer 414, as common proxies do (nginx: 8 KiB buffers). */
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * Failures of the router itself (an undecodable path, a path parameter over
 * `maxParamLength`): Fastify's `frameworkErrors` option, answered as problem+json.
 */
export function frameworkErrors(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return void sendProblem(reply, request, 'uri_too_long', 'A part of this address is too long');
  if (err.code === 'FST_ERR_BAD_URL')
    return void sendProblem(reply, request, 'validation_failed', 'This address is not valid');
  request.log.error({ err }, 'router error');
  void sendProblem(reply, request, 'internal');
}

/** An address longer than MAX_URL_LENGTH (but within Node's header limit) gets a 414. */
export function registerUrlLimit(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.length > MAX_URL_LENGTH)
      return sendProblem(
        reply,
        request,
        'uri_too_long',
        `Addresses are limited to ${MAX_URL_LENGTH / 1024} KiB`,
      );
  });
}

/** What Node's parser reports along with the error (Fastify's type for it is too narrow). */
type ParserError = Error & { code?: string; rawPacket?: unknown; bytesParsed?: number };

/** Whether Node's parser overflowed inside the request line: the URL, not the headers. */
function inRequestLine(err: ParserError): boolean {
  const raw = err.rawPacket;
  if (!Buffer.isBuffer(raw) || !/^[A-Z]+ \S/.test(raw.subarray(0, 16).toString('latin1')))
    return false;
  const lineEnd = raw.indexOf('\n');
  return lineEnd === -1 || lineEnd >= (err.bytesParsed ?? raw.length);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or address over its
 * 16 KiB limit, malformed HTTP, headers too slow): answered as problem+json, then closed.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  const err: ParserError = error;
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) return void socket.destroy(err);
  const [type, detail]: [ProblemType, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['request_timeout', 'The request headers did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? inRequestLine(err)
          ? ['uri_too_long', 'The address is too long']
          : ['headers_too_large', 'The request line and headers are limited to 16 KiB']
        : ['validation_failed', 'The request is not valid HTTP'];
  const body = JSON.stringify(problemOf(type, detail));
  const status = problemOf(type).status;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${PROBLEM_JSON}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n' +
      body,
  );
}
