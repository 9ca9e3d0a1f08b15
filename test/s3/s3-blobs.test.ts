/**
 * What only the S3 engine does: parts streamed straight into UploadPart, a completion that fails its checks
 * taken back apart, an object store that goes away, and API processes that keep nothing on local disk.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompleteMultipartUploadCommand, ListPartsCommand } from '@aws-sdk/client-s3';
import type { S3BlobStore } from '../../src/blobs/s3/s3-blob-store.js';
import { PROJECT_ROOT } from '../../src/contract/paths.js';
import { padPdf, partsKept, partSize, s3ServerEnv } from '../helpers/blobs.js';
import { readPdf, sendUpload, sha256, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import {
  call,
  finished,
  pollRun,
  port,
  startServerProcess,
  startWorkerProcess,
  tempDataDir,
  uploadWhole,
  deploymentEnv,
  type Started,
  built,
  newTenant,
} from '../helpers/processes.js';
import { rawRequest } from '../helpers/raw-http.js';

const PART = partSize(0);
const form = await padPdf(readPdf('real/cups-filters__form_english.pdf'), 2 * PART + 5000);
const partOf = (n: number) => form.subarray((n - 1) * PART, n * PART);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ UPLOAD_PART_SIZE: String(PART) });
});
afterAll(async () => {
  await h.close();
});
const auth = () => ({ authorization: `Bearer ${h.tenant.token}` });
const put = (uploadId: string, n: number, bytes: Uint8Array) =>
  h.request('PUT', `/api/open/uploads/${uploadId}/parts/${n}`, {
    body: bytes,
    contentType: 'application/octet-stream',
  });
/** The S3 multipart upload behind an upload, as its record names it. */
async function multipartOf(uploadId: string) {
  const [row] = await h.query<{ multipart_id: string }>('SELECT multipart_id FROM uploads WHERE id = ?', [
    uploadId,
  ]);
  return { key: `files/${h.tenant.tenant_id}/${uploadId}.pdf`, id: row!.multipart_id };
}
const complete = (uploadId: string) =>
  h.request('POST', '/api/open/uploads/complete', { json: { upload_id: uploadId } });

describe('parts on S3', () => {
  it('a short body, a long body and a client gone mid-part leave the stored part as it was', async () => {
    const { upload_id } = await sendUpload(h, form);
    const short = await put(upload_id, 1, new Uint8Array(PART - 1));
    expect(short.status).toBe(422);
    // a long body without a length: refused when it passes the part size, mid-stream
    const long = await rawRequest(h.url, 'PUT', `/api/open/uploads/${upload_id}/parts/1`, {
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      chunks: [Buffer.alloc(PART / 2, 1), Buffer.alloc(PART / 2, 1), Buffer.alloc(10, 1)],
    });
    expect(long.status).toBe(413);
    const gone = rawRequest(h.url, 'PUT', `/api/open/uploads/${upload_id}/parts/1`, {
      headers: { ...auth(), 'content-type': 'application/octet-stream', 'content-length': String(PART) },
      chunks: [Buffer.alloc(1000, 9), Buffer.alloc(PART - 1000, 9)],
      stallAfter: 1,
      dropAfterMs: 100,
    });
    await gone.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const done = await complete(upload_id);
    expect(done.status).toBe(200);
    expect(done.body.data.sha256).toBe(sha256(form));
  });

  it('a completion that fails its checks opens the upload again with the same parts', async () => {
    const wrong = sha256(new Uint8Array([1]));
    const started = await h.request('POST', '/api/open/uploads', {
      json: { file_name: 'f.pdf', size_bytes: form.length, sha256: wrong },
    });
    const upload = started.body.data;
    for (let n = 1; n <= upload.part_count; n++)
      expect((await put(upload.upload_id, n, partOf(n))).status).toBe(200);
    const refused = await complete(upload.upload_id);
    expect(refused.body.error).toBe('checksum_mismatch');
    expect(await partsKept(h.server.services.blobs, h.tenant.tenant_id, upload.upload_id)).toBe(true);
    // a fixed part 2 replaces the copy, and the file is the new bytes
    const fixed = new Uint8Array(partOf(2));
    fixed[100] = fixed[100]! ^ 0xff;
    expect((await put(upload.upload_id, 2, fixed)).status).toBe(200);
    const state = await h.request('GET', `/api/open/uploads/${upload.upload_id}`);
    expect(state.body.data).toMatchObject({ status: 'pending', missing_parts: [] });
    const again = await complete(upload.upload_id);
    expect(again.body.error).toBe('checksum_mismatch');
    const expected = Buffer.concat([partOf(1), fixed, partOf(3)]);
    expect(again.body.message).toContain(sha256(expected));
  });

  it('a part sent after its multipart upload was closed in the store is a 409, not a 500', async () => {
    const started = await h.request('POST', '/api/open/uploads', {
      json: { file_name: 'f.pdf', size_bytes: form.length },
    });
    const upload = started.body.data;
    // what a completion or an abort in another process does to the store in the middle of this part
    await h.server.services.blobs.multipart.abort(await multipartOf(upload.upload_id));
    const refused = await put(upload.upload_id, 1, partOf(1));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: 'upload_completed',
      message: 'Upload was completed or aborted while the part was sent',
    });
  });

  it('a completion whose process died after S3 assembled the file completes on the next try', async () => {
    const { upload_id } = await sendUpload(h, form);
    const { key, id } = await multipartOf(upload_id);
    const s3 = h.server.services.blobs as S3BlobStore;
    // what the dead process got done: S3 assembled the parts; no record says so
    const listed = await s3.client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: key, UploadId: id }));
    await s3.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: s3.bucket,
        Key: key,
        UploadId: id,
        MultipartUpload: { Parts: listed.Parts!.map((p) => ({ PartNumber: p.PartNumber, ETag: p.ETag })) },
      }),
    );
    const done = await complete(upload_id);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ size_bytes: form.length, sha256: sha256(form) });
  });

  it('parts that are gone from the object store: complete is a 409 that says what to do', async () => {
    const { upload_id } = await sendUpload(h, form);
    await h.server.services.blobs.multipart.abort(await multipartOf(upload_id));
    const refused = await complete(upload_id);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('upload_incomplete');
    expect(refused.body.message).toMatch(/abort it and upload the file again/);
    expect((await h.request('DELETE', `/api/open/uploads/${upload_id}`)).status).toBe(200);
  });

  it('the sweep aborts multipart uploads no pending upload owns, and keeps the ones that are', async () => {
    const { upload_id } = await sendUpload(h, form);
    const blobs = h.server.services.blobs;
    // a start whose record never committed (its process died in between)
    const strayKey = `files/${h.tenant.tenant_id}/00000000-0000-4000-8000-00000000000a.pdf`;
    const stray = await blobs.multipart.start(strayKey);
    const open = async () => {
      const ids: string[] = [];
      for await (const upload of blobs.multipart.listOpen(`files/${h.tenant.tenant_id}`)) ids.push(upload.id);
      return ids;
    };
    expect(await open()).toContain(stray);
    // Swift gives a multipart upload's start time rounded up to the second
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await h.server.services.uploads.sweepLeftovers(0)).toBeGreaterThanOrEqual(1);
    expect(await open()).not.toContain(stray);
    expect(await partsKept(blobs, h.tenant.tenant_id, upload_id)).toBe(true);
    expect((await complete(upload_id)).status).toBe(200);
  });

  it('with S3 the part size is at least 5 MiB: a smaller UPLOAD_PART_SIZE does not start', async () => {
    await expect(startHarness({ UPLOAD_PART_SIZE: String(1024 * 1024) })).rejects.toThrow(
      /UPLOAD_PART_SIZE must be at least 5242880 \(5 MiB\) with BLOB_STORE=s3/,
    );
  });
});

/** A TCP relay to the S3 server that can be cut, as a network or an object store that goes away. */
async function relay(
  target: string,
): Promise<{ endpoint: string; cut(): void; restore(): void; close(): Promise<void> }> {
  const { hostname, port: targetPort } = new URL(target);
  let open = true;
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(Number(targetPort), hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as import('node:net').AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('an object store that goes away', () => {
  it('answers 503 unavailable with Retry-After, and works again when it is back', async () => {
    const link = await relay(s3ServerEnv().S3_ENDPOINT!);
    const bucket = h.config.blobs.kind === 's3' ? h.config.blobs.bucket : '';
    const g = await startHarness({
      UPLOAD_PART_SIZE: String(PART),
      S3_BUCKET: bucket,
      S3_ENDPOINT: link.endpoint,
    });
    try {
      const started = await g.request('POST', '/api/open/uploads', {
        json: { file_name: 'f.pdf', size_bytes: form.length },
      });
      link.cut();
      const refused = await g.request('PUT', `/api/open/uploads/${started.body.data.upload_id}/parts/1`, {
        body: partOf(1),
        contentType: 'application/octet-stream',
      });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toBe('unavailable');
      expect(refused.headers.get('retry-after')).toBe('1');
      const again = await g.request('POST', '/api/open/uploads', {
        json: { file_name: 'f.pdf', size_bytes: 10 },
      });
      expect(again.status).toBe(503);
      link.restore();
      const back = await g.request('PUT', `/api/open/uploads/${started.body.data.upload_id}/parts/1`, {
        body: partOf(1),
        contentType: 'application/octet-stream',
      });
      expect(back.status).toBe(200);
    } finally {
      await g.close();
      await link.close();
    }
  });

  it('a server whose bucket does not exist does not start, and says why in one line', async () => {
    const dataDir = await tempDataDir();
    const result = spawnSync(process.execPath, [built('src/start/server.ts')], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        ...deploymentEnv(dataDir),
        PORT: String(port()),
        S3_BUCKET: 'ota-no-such-bucket',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    rmSync(dataDir, { recursive: true, force: true });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/S3 bucket ota-no-such-bucket cannot be used: it does not exist/);
  });
});

describe('stateless API processes', () => {
  const started: Started[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(started.map((p) => p.kill()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('an API process and a worker keep nothing on local disk: no data directory, no scratch file left', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const token = (await newTenant(dataDir, 's')).token;
    const apiData = path.join(dataDir, 'api-data');
    const apiTmp = mkdtempSync(path.join(tmpdir(), 'ota-api-tmp-'));
    const workerTmp = mkdtempSync(path.join(tmpdir(), 'ota-worker-tmp-'));
    dirs.push(apiTmp, workerTmp);
    const api = await startServerProcess(dataDir, port(), {
      PARSER_THREADS: '0',
      UPLOAD_PART_SIZE: String(PART),
      DATA_DIR: apiData,
      TMPDIR: apiTmp,
    });
    started.push(api);
    started.push(
      startWorkerProcess(dataDir, { DATA_DIR: path.join(dataDir, 'worker-data'), TMPDIR: workerTmp }),
    );
    const fileId = await uploadWhole(api.url, token, form);
    const run = (await call(api.url, token, 'POST', '/api/open/runs', { file_id: fileId })).body.data;
    expect((await pollRun(api.url, token, run.id, finished, 60_000)).status).toBe('succeeded');
    const report = await fetch(`${api.url}/api/open/runs/${run.id}/files/report.html`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(report.headers.get('content-length'))).toBe((await report.arrayBuffer()).byteLength);
    // tsx, which runs these processes from the TypeScript sources, keeps its compile cache there
    const ours = (dir: string) => readdirSync(dir).filter((name) => !name.startsWith('tsx-'));
    expect(ours(apiTmp)).toEqual([]);
    expect(ours(workerTmp)).toEqual([]);
    expect(readdirSync(dataDir).filter((f) => f.endsWith('-data'))).toEqual([]);
    expect(deploymentEnv(dataDir).BLOB_STORE).toBe('s3');
  });

  it('two processes sweeping expired uploads at once remove each once, bytes included, without an error', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const token = (await newTenant(dataDir, 'sw')).token;
    const env = {
      PARSER_THREADS: '0',
      UPLOAD_PART_SIZE: String(PART),
      UPLOAD_TTL_SECONDS: '1',
      UPLOAD_SWEEP_SECONDS: '1',
    };
    // each is stopped after the test even when the other does not start
    const a = await startServerProcess(dataDir, port(), env);
    started.push(a);
    const b = await startServerProcess(dataDir, port(), env);
    started.push(b);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const upload = (
        await call(a.url, token, 'POST', '/api/open/uploads', { file_name: 'x.pdf', size_bytes: form.length })
      ).body.data;
      await call(b.url, token, 'PUT', `/api/open/uploads/${upload.upload_id}/parts/1`, undefined, partOf(1));
      ids.push(upload.upload_id);
    }
    const deadline = Date.now() + 15_000;
    for (;;) {
      const states = await Promise.all(ids.map((id) => call(a.url, token, 'GET', `/api/open/uploads/${id}`)));
      if (states.every((s) => s.status === 404)) break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const blobs = h.server.services.blobs;
    // the sweep ran in both processes; what is left is no open multipart upload for any of them
    const { openBlobStore } = await import('../../src/blobs/open.js');
    const { loadConfig } = await import('../../src/kernel/config.js');
    const theirs = await openBlobStore(loadConfig({ ...process.env, ...deploymentEnv(dataDir) }));
    for (const id of ids) expect(await partsKept(theirs, 'any', id)).toBe(false);
    let open = 0;
    for await (const _ of theirs.multipart.listOpen('files')) open++;
    expect(open).toBe(0);
    expect(blobs).toBeDefined();
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  });
});

describe('runs read the file from S3', () => {
  it('a run of an uploaded file succeeds and its outputs download with their length', async () => {
    const { upload_id } = await sendUpload(h, form);
    const fileId = (await complete(upload_id)).body.data.file_id;
    const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
    const done = await waitForRun(h, run.id);
    expect(done.status).toBe('succeeded');
    const json = await h.request('GET', `/api/open/runs/${run.id}/files/report.json`);
    expect(Number(json.headers.get('content-length'))).toBe(Buffer.byteLength(json.text));
  });
});
