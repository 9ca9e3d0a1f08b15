import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import {
  port as freePort,
  type Started,
  startServerProcess,
  tempDataDir,
  newTenant,
} from '../helpers/processes.js';

const dataDir = await tempDataDir();
let server: Started | undefined;
afterAll(async () => {
  await server?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('graceful shutdown', () => {
  it('SIGTERM lets an in-flight upload finish, refuses new connections and exits 0', async () => {
    const tenant = await newTenant(dataDir, 'shutdown');
    // below the ephemeral range and the test servers' ports (the helper says why)
    const port = freePort();
    server = await startServerProcess(dataDir, port, { PARSER_THREADS: '1' });
    const size = 1024 * 1024;
    const started = await fetch(`${server.url}/api/open/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: 'a.pdf', size_bytes: size }),
    });
    const { upload_id } = ((await started.json()) as { data: { upload_id: string } }).data;

    const exited = new Promise<number | null>((resolve) =>
      server!.child.once('exit', (code) => resolve(code)),
    );
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server!.url}/api/open/uploads/${upload_id}/parts/1`,
        {
          method: 'PUT',
          headers: {
            authorization: `Bearer ${tenant.token}`,
            'content-type': 'application/octet-stream',
            'content-length': String(size),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      // part 1 begins as a PDF does, or it is refused as not a PDF
      req.write(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size / 2 - 9)]));
      setTimeout(() => {
        server!.child.kill('SIGTERM');
        setTimeout(() => req.end(Buffer.alloc(size / 2)), 300);
      }, 200);
    });

    const answered = await response;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).data.size_bytes).toBe(size);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(await exited).toBe(0);
  });
});
