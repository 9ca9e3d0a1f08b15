import { request } from 'node:http';

/**
 * One tenant sends `count` part bodies of `size` bytes at once, each on its own connection, writing as fast
 * as the socket takes it (no Expect: 100-continue, as fetch sends). Prints the answers' statuses and socket
 * errors as one JSON line: a client that got no answer shows up as its error code.
 */
const [base, token, uploadId, sizeText, countText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const size = Number(sizeText);
const piece = Buffer.alloc(256 * 1024, 7);
const outcomes: Record<string, number> = {};
const put = (part: number) =>
  new Promise<void>((resolve) => {
    const done = (what: string) => {
      outcomes[what] = (outcomes[what] ?? 0) + 1;
      resolve();
    };
    const req = request(`${base}/api/open/uploads/${uploadId}/parts/${part}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/octet-stream',
        'content-length': String(size),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done(String(res.statusCode)));
    });
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    let left = size;
    const write = () => {
      while (left > 0) {
        const chunk = left >= piece.length ? piece : piece.subarray(0, left);
        left -= chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
await Promise.all(Array.from({ length: Number(countText) }, (_, i) => put(i + 1)));
console.log(JSON.stringify(outcomes));
