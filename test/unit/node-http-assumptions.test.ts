import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';

/**
 * What src/http/continue.ts relies on and Node does not document: after an answer to a request that asked to
 * close the connection, Node's HTTP server ends the socket through `socket.destroySoon()`, which
 * `lingerOnClose` replaces to keep reading a refused body. When Node stops calling it, this fails first.
 */
describe("Node's HTTP server, as continue.ts uses it", () => {
  it('ends a connection asked to close through socket.destroySoon after the answer', async () => {
    let called = false;
    const server = createServer((req, res) => {
      const socket = req.socket as Socket & { destroySoon?: () => void };
      expect(typeof socket.destroySoon).toBe('function');
      const original = socket.destroySoon!.bind(socket);
      socket.destroySoon = () => {
        called = true;
        original();
      };
      res.end('done');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', headers: { connection: 'close' } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
      expect(body).toBe('done');
      expect(called).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
