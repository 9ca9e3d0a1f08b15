import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { envelopeOf, ERRORS } from '../kernel/errors.js';
import type { Logger } from '../kernel/logger.js';

/**
 * Requests that Node's HTTP parser refuses never reach Koa. They are answered here, in the same failing
 * envelope as everything else, and the connection is closed.
 */
export function answerClientError(failure: NodeJS.ErrnoException, socket: Socket, logger: Logger): void {
  const code = failure.code;
  if (code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const error =
    code === 'HPE_HEADER_OVERFLOW'
      ? ERRORS.headersTooLarge()
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ERRORS.requestTimeout()
        : ERRORS.badRequest();
  const status = error.status;
  const requestId = randomUUID();
  const body = JSON.stringify(envelopeOf(error, requestId));
  logger.info({ request_id: requestId, status, reason: code }, 'request refused by the HTTP parser');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
