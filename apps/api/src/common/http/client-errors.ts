import { STATUS_CODES, type Server, maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorReply, errorReply } from '../errors/envelope';

/** How long a client that does not read may keep a connection whose request was refused. */
const CLOSE_AFTER_MS = 5_000;

function replyTo(error: NodeJS.ErrnoException): ErrorReply {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return errorReply('HEADERS_TOO_LARGE', `the request line and headers are larger than ${maxHeaderSize / 1024} KB`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errorReply('REQUEST_TIMEOUT', 'the request did not arrive in time');
    case undefined:
    default:
      return errorReply('BAD_REQUEST', 'the request is not well-formed HTTP');
  }
}

/**
 * A request Node cannot read (headers too large, malformed, too slow) is answered by Node itself with an empty
 * body; these answers carry the envelope too. The connection is closed after it.
 */
export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, body } = replyTo(error);
    const json = JSON.stringify(body);
    // closed whole once the answer is out, as Node closes it: ended only, a client could go on sending into it
    const close = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
      () => {
        clearTimeout(close);
        socket.destroy();
      },
    );
  });
}
