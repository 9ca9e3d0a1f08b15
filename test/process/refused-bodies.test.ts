import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  call,
  cleanedAfterEach,
  port,
  startServerProcess,
  tempDataDir,
  newTenant,
} from '../helpers/processes.js';

const { started, dirs } = cleanedAfterEach();

const PART = 8 * 1024 * 1024;

/** One part PUT that writes its whole body as fast as the socket takes it; the status, or the socket error. */
function put(url: string, token: string, path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, {
      method: 'PUT',
      agent: false,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(PART),
        ...headers,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    const piece = Buffer.alloc(256 * 1024, 7);
    // part 1 begins as a PDF does, or the part that is let in is refused as not a PDF
    const first = Buffer.concat([Buffer.from('%PDF-1.7\n'), piece.subarray(9)]);
    let left = PART / piece.length;
    const write = () => {
      while (left > 0) {
        left--;
        if (!req.write(left === PART / piece.length - 1 ? first : piece))
          return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

describe('part bodies refused while they are being sent (a server process, 8 MiB parts)', () => {
  it('every client gets its answer: no reset, whether it asked to close the connection or not', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'flood');
    const server = await startServerProcess(dataDir, port(), { PARSER_THREADS: '0' });
    started.push(server);
    const upload = (
      await call(server.url, tenant.token, 'POST', '/api/open/uploads', {
        file_name: 'big.pdf',
        size_bytes: 32 * PART,
      })
    ).body.data.upload_id as string;
    for (const connection of ['close', 'keep-alive']) {
      const answers = await Promise.all(
        Array.from({ length: 32 }, (_, i) =>
          put(server.url, tenant.token, `/api/open/uploads/${upload}/parts/${i + 1}`, { connection }),
        ),
      );
      const counts: Record<string, number> = {};
      for (const answer of answers) counts[answer] = (counts[answer] ?? 0) + 1;
      // the first 8 of the tenant's parts are received (MAX_CONCURRENT_PARTS_PER_TENANT), the rest refused
      expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual(['200', '429']);
    }
  });
});
