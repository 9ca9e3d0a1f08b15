import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';

/**
 * Requests that Node's HTTP parser refuses never reach Koa. They are answered here, in the same failing
 * envelope as everything else, and the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, logger: Logger): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are larger than 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request did not arrive in time']
        : [400, 'Bad Request', 'The request is not valid HTTP'];
  const requestId = randomUUID();
  const body = JSON.stringify({
    code: status,
    message,
    error: status === 431 ? 'headers_too_large' : status === 408 ? 'request_timeout' : 'bad_request',
    data: null,
    timestamp: Date.now(),
    request_id: requestId,
  });
  logger.info({ request_id: requestId, status, reason: error.code }, 'request refused by the HTTP parser');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
