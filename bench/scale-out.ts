/**
 * Scenario 10: the scale-out deployment on this machine. One PostgreSQL, one OpenStack Swift (S3 API), API
 * processes behind HAProxy, worker processes. Measures S3 uploads against a bare @aws-sdk PutObject of the
 * same bytes to the same Swift, the run list through HAProxy with one and two API processes, runs finished
 * per second by two workers, and how long a dead worker's run waits before another takes it over.
 */
import { Agent, request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createS3Client } from '../src/blobs/s3/s3-blob-store.js';
import { DEFAULT_PART_SIZE } from '../src/kernel/config.js';
import { PDFDocument } from 'pdf-lib';
import { startHaproxy, type RunningHaproxy } from '../stack/haproxy.js';
import { startLocalPostgres } from '../stack/postgres.js';
import { createBucket, startLocalSwift, stopLocalSwift } from '../stack/swift.js';
import { bearer, median, round, type Row } from './common.js';
import { type LoadResult, pinnedServerCores } from './load.js';
import { writeLargePdf } from './pdf-fixture.js';
import { type Proc, startApi, startWorker } from './processes.js';
import { postgresQuery, seedPostgresRuns } from './seed-postgres.js';

export interface ScaleOutContext {
  quick: boolean;
  work: string;
  port(): number;
  uploadSizes: number[];
  runListSize: number;
  rounds: number;
  record(row: Row): void;
  /** wrk against `url`, pinned as every HTTP scenario is; `serverPid` is the process whose CPU is read. */
  load(url: string, headers: Record<string, string>, serverPid: number): Promise<LoadResult>;
}

/** The server's own part size with S3 (`UPLOAD_PART_SIZE` unset), which the bare multipart upload uses too. */
const PART = DEFAULT_PART_SIZE.s3;

/** Bytes of every file under `dir` (0 when it does not exist). */
function bytesUnder(dir: string): number {
  let total = 0;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
    }
  } catch {
    // no such directory: nothing stored
  }
  return total;
}

/** POSTs JSON as the tenant; the answer's `data`. */
async function post<T>(url: string, token: string, body: object): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: T }).data;
}

/**
 * The API's RSS once its start-up work is over. `/readyz` answers before the request validators' warm-up
 * (about half a second of compiling, one operation per turn of the event loop), which grows the young
 * generation by ~33 MB: read there, the idle RSS left that out. It is read once it has not grown by 1 MB in
 * a second (10 s at most).
 */
async function settledRssMb(api: Proc): Promise<number> {
  let last = api.rssMb();
  for (let second = 0; second < 10; second++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = api.rssMb();
    if (now - last < 1) return now;
    last = now;
  }
  return last;
}

const startUpload = async (base: string, token: string, name: string, size: number) => {
  const upload = await post<{ upload_id: string; part_size: number }>(`${base}/api/open/uploads`, token, {
    file_name: name,
    size_bytes: size,
  });
  // the parts are cut at PART: the server must have chosen that size
  if (upload.part_size !== PART)
    throw new Error(`the API chose parts of ${upload.part_size} bytes, not ${PART}`);
  return upload.upload_id;
};
const completeUpload = async (base: string, token: string, uploadId: string) =>
  (await post<{ file_id: string }>(`${base}/api/open/uploads/complete`, token, { upload_id: uploadId }))
    .file_id;
const createRun = async (base: string, token: string, fileId: string) =>
  (await post<{ id: string }>(`${base}/api/open/runs`, token, { file_id: fileId })).id;

export async function scaleOut(ctx: ScaleOutContext): Promise<void> {
  const pgDir = mkdtempSync(path.join(tmpdir(), 'ota-bench-scale-pg-'));
  const swiftDir = mkdtempSync(path.join(tmpdir(), 'ota-bench-swift-'));
  const haproxyDir = mkdtempSync(path.join(tmpdir(), 'ota-bench-haproxy-'));
  const proxies: RunningHaproxy[] = [];
  const postgres = await startLocalPostgres(pgDir, ctx.port(), pinnedServerCores);
  // Swift takes five ports in a row: proxy, account, container, object, memcached
  const swiftPort = ctx.port();
  for (let i = 0; i < 4; i++) ctx.port();
  try {
    const swift = startLocalSwift(swiftDir, swiftPort);
    const bucket = 'bench';
    await createBucket(swift, bucket);
    const client = createS3Client({
      endpoint: swift.endpoint,
      region: swift.region,
      forcePathStyle: true,
      credentials: { accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey },
    });
    await postgresQuery(postgres.url, 'CREATE DATABASE scale');
    const url = postgres.url.replace(/\/postgres$/, '/scale');
    const tenant = await seedPostgresRuns(url, 'scale', ctx.runListSize);
    const env = {
      ...swift.env,
      DATABASE_URL: url,
      BLOB_STORE: 's3',
      S3_BUCKET: bucket,
      MAX_UPLOAD_BYTES: String(4 * 2 ** 30),
      PARSER_THREADS: '0',
      MAX_QUEUED_RUNS_PER_TENANT: '1000000000',
    };

    // --- uploads: ours (parts through the API into S3 multipart, then complete) vs a bare PutObject
    for (const size of ctx.uploadSizes) {
      const file = path.join(ctx.work, `scale-upload-${size}.pdf`);
      await writeLargePdf(file, size);
      const apiData = mkdtempSync(path.join(tmpdir(), 'ota-bench-api-data-'));
      const apiTmp = mkdtempSync(path.join(tmpdir(), 'ota-bench-api-tmp-'));
      const api = await startApi(apiData, ctx.port(), { ...env, TMPDIR: apiTmp });
      const label = `${size / 2 ** 20} MiB`;
      const idleRss = await settledRssMb(api);
      const pairs: { bare: number; bareParts: number; parts: number; whole: number; completeS: number }[] =
        [];
      api.resetPeak();
      // round 0 warms both paths up (connections, JIT, Swift's caches) and is not counted
      for (let r = 0; r <= Math.max(1, ctx.rounds - 1); r++) {
        const t0 = performance.now();
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: `bare/${r}.pdf`,
            Body: createReadStream(file),
            ContentLength: size,
          }),
        );
        const bare = size / 2 ** 20 / ((performance.now() - t0) / 1000);
        const bareParts = await bareMultipart(client, bucket, `bare-parts/${r}.pdf`, file, size);
        const id = await startUpload(api.url, tenant.token, 'big.pdf', size);
        const t1 = performance.now();
        const parts = await sendPartsHttp(api.url, id, tenant.token, file, size);
        const t2 = performance.now();
        await completeUpload(api.url, tenant.token, id);
        const completeS = (performance.now() - t2) / 1000;
        const whole = size / 2 ** 20 / ((performance.now() - t1) / 1000);
        if (r > 0) pairs.push({ bare, bareParts, parts, whole, completeS });
      }
      const peak = api.peakRssMb();
      const left = bytesUnder(apiData) + bytesUnder(apiTmp);
      const bare = median(pairs.map((p) => p.bare));
      ctx.record({
        scenario: '10 S3 upload',
        variant: `bare @aws-sdk PutObject, ${label}`,
        value: `${round(bare, 1)} MB/s`,
      });
      ctx.record({
        scenario: '10 S3 upload',
        variant: `bare @aws-sdk multipart, ${PART / 2 ** 20} MiB parts, 2 at once, ${label}`,
        value: `${round(median(pairs.map((p) => p.bareParts)), 1)} MB/s (the object store's own multipart: our parts' ceiling)`,
        ratio: median(pairs.map((p) => p.bareParts / p.bare)),
      });
      const ratio = median(pairs.map((p) => p.parts / p.bare));
      ctx.record({
        scenario: '10 S3 upload',
        variant: `parts into S3 multipart, ${label}`,
        value: `${round(median(pairs.map((p) => p.parts)), 1)} MB/s, ${round(median(pairs.map((p) => p.parts / p.bareParts)), 2)}x the bare multipart; idle RSS ${Math.round(idleRss)} MB (warmed up); ${left} bytes left on the API's disk`,
        peakRssMb: peak,
        ratio,
        target: '>= 0.8x PutObject; RSS < 200 MB; 0 bytes left',
        met: ratio >= 0.8 && peak < 200 && left === 0,
      });
      ctx.record({
        scenario: '10 S3 upload',
        variant: `with complete (read back + SHA-256 + open), ${label}`,
        value: `${round(median(pairs.map((p) => p.whole)), 1)} MB/s end to end; complete ${round(median(pairs.map((p) => p.completeS)), 2)} s`,
        ratio: median(pairs.map((p) => p.whole / p.bare)),
      });
      await api.stop();
      rmSync(file, { force: true });
      rmSync(apiData, { recursive: true, force: true });
      rmSync(apiTmp, { recursive: true, force: true });
    }

    // --- the run list through HAProxy, one API process and two
    const apis: Proc[] = [];
    for (let i = 0; i < 2; i++)
      apis.push(await startApi(path.join(ctx.work, `scale-api-${i}`), ctx.port(), env, { pinned: true }));
    const one = await startHaproxy(
      haproxyDir,
      ctx.port(),
      [{ name: 'api1', port: Number(new URL(apis[0]!.url).port) }],
      pinnedServerCores,
    );
    const two = await startHaproxy(
      haproxyDir,
      ctx.port(),
      apis.map((a, i) => ({ name: `api${i + 1}`, port: Number(new URL(a.url).port) })),
      pinnedServerCores,
    );
    proxies.push(one, two);
    const route = '/api/open/runs?limit=20';
    const direct: LoadResult[] = [];
    const viaOne: LoadResult[] = [];
    const viaTwo: LoadResult[] = [];
    for (let r = 0; r < ctx.rounds; r++) {
      direct.push(await ctx.load(`${apis[0]!.url}${route}`, bearer(tenant.token), apis[0]!.child.pid!));
      viaOne.push(await ctx.load(`${one.url}${route}`, bearer(tenant.token), apis[0]!.child.pid!));
      viaTwo.push(await ctx.load(`${two.url}${route}`, bearer(tenant.token), apis[0]!.child.pid!));
    }
    const rps = (results: LoadResult[]) => median(results.map((x) => x.rps));
    const label = `${ctx.runListSize / 1000}k runs`;
    const listRow = (variant: string, results: LoadResult[], extra: Partial<Row> = {}) =>
      ctx.record({
        scenario: '10 run list',
        variant: `${variant}, ${label}`,
        rps: rps(results),
        p50: median(results.map((x) => x.p50)),
        p99: median(results.map((x) => x.p99)),
        ...extra,
      });
    listRow('1 API process, direct', direct);
    listRow('1 API process via HAProxy', viaOne, {
      ratio: rps(viaOne) / rps(direct),
      value: 'ratio: HAProxy hop vs direct',
    });
    listRow('2 API processes via HAProxy', viaTwo, {
      ratio: rps(viaTwo) / rps(viaOne),
      value: `ratio vs 1 API process via HAProxy; all on core ${pinnedServerCores ?? 'any'}`,
    });

    // --- runs finished per second by two workers
    const workerData = path.join(ctx.work, 'scale-workers');
    const workers = [
      startWorker(workerData, { ...env, PARSER_THREADS: '1' }),
      startWorker(workerData, { ...env, PARSER_THREADS: '1' }),
    ];
    const small = await manyPagePdf(1);
    const smallFile = path.join(ctx.work, 'scale-small.pdf');
    writeFileSync(smallFile, small);
    const fileId = await uploadFile(two.url, tenant.token, smallFile, small.length);
    const count = ctx.quick ? 20 : 200;
    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(await createRun(two.url, tenant.token, fileId));
    }
    for (;;) {
      const [row] = await postgresQuery<{ n: string }>(
        url,
        `SELECT COUNT(*) AS n FROM runs WHERE id = ANY($1) AND status IN ('succeeded', 'failed')`,
        [ids],
      );
      if (Number(row!.n) === count) break;
      if (performance.now() - t0 > 300_000) throw new Error('runs did not finish in 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const perSecond = count / ((performance.now() - t0) / 1000);
    ctx.record({
      scenario: '10 workers',
      variant: `${count} one-page runs, 2 worker processes`,
      value: `${round(perSecond, 1)} runs/s finished`,
    });

    // --- a dead worker's run: how long until another worker goes on with it
    await Promise.all(workers.map((w) => w.stop()));
    const leaseMs = 2000;
    const pages = 10_000;
    const long = await manyPagePdf(pages);
    const longFile = path.join(ctx.work, 'scale-long.pdf');
    writeFileSync(longFile, long);
    const longId = await uploadFile(two.url, tenant.token, longFile, long.length);
    const leaseEnv = { ...env, PARSER_THREADS: '1', RUN_LEASE_MS: String(leaseMs) };
    const first = startWorker(workerData, leaseEnv);
    const runId = await createRun(two.url, tenant.token, longId);
    const progress = async () =>
      Number(
        (
          await postgresQuery<{ c: string }>(url, 'SELECT completed_tasks AS c FROM runs WHERE id = $1', [
            runId,
          ])
        )[0]!.c,
      );
    while ((await progress()) < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    // the second worker boots while the first one's lease runs out
    const second = startWorker(workerData, leaseEnv);
    first.child.kill('SIGKILL');
    const killedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const atKill = await progress();
    if (atKill >= pages + 1) throw new Error('the run was done before the kill: use more pages');
    while ((await progress()) <= atKill) {
      if (performance.now() - killedAt > 60_000) throw new Error('no worker took the run over in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const takeoverS = (performance.now() - killedAt) / 1000;
    ctx.record({
      scenario: '10 workers',
      variant: `take over a kill -9'd worker's run (RUN_LEASE_MS=${leaseMs})`,
      value: `${round(takeoverS, 2)} s from the kill to the next page done`,
      target: `about the lease (${leaseMs / 1000} s) + a claim poll`,
      met: takeoverS < leaseMs / 1000 + 3,
    });
    await second.stop();
  } finally {
    await Promise.all(proxies.map((p) => p.stop()));
    stopLocalSwift(swiftDir);
    postgres.stop();
    for (const dir of [pgDir, swiftDir, haproxyDir]) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same file straight into the object store's multipart upload, in parts of the size the API is given and
 * two at once, as the API's client sends them: what S3 multipart costs without our hop. MB/s.
 */
async function bareMultipart(client: S3Client, bucket: string, key: string, file: string, size: number) {
  const started = performance.now();
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
  const parts = Math.ceil(size / PART);
  const done: { PartNumber: number; ETag: string }[] = [];
  let next = 1;
  const lane = async () => {
    while (next <= parts) {
      const part = next++;
      const start = (part - 1) * PART;
      const end = Math.min(size, start + PART) - 1;
      const { ETag } = await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          PartNumber: part,
          Body: createReadStream(file, { start, end }),
          ContentLength: end - start + 1,
        }),
      );
      done.push({ PartNumber: part, ETag: ETag! });
    }
  };
  await Promise.all([lane(), lane()]);
  const rate = size / 2 ** 20 / ((performance.now() - started) / 1000);
  done.sort((a, b) => a.PartNumber - b.PartNumber);
  await client.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucket,
      Key: key,
      UploadId,
      MultipartUpload: { Parts: done },
    }),
  );
  return rate;
}

/**
 * Sends every part over two keep-alive connections with node:http, as the SDK sends its PutObject: a client
 * as lean as the reference's, so the two differ by the server's hop and not by the client library.
 */
async function sendPartsHttp(base: string, uploadId: string, token: string, file: string, size: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const parts = Math.ceil(size / PART);
  let next = 1;
  const started = performance.now();
  const putPart = (part: number) =>
    new Promise<void>((resolve, reject) => {
      const start = (part - 1) * PART;
      const end = Math.min(size, start + PART) - 1;
      const req = request(
        `${base}/api/open/uploads/${uploadId}/parts/${part}`,
        {
          method: 'PUT',
          agent,
          headers: {
            ...bearer(token),
            'content-type': 'application/octet-stream',
            'content-length': String(end - start + 1),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`part ${part}: ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      pipeline(createReadStream(file, { start, end, highWaterMark: 2 ** 20 }), req).catch(reject);
    });
  const lane = async () => {
    while (next <= parts) await putPart(next++);
  };
  await Promise.all([lane(), lane()]);
  agent.destroy();
  return size / 2 ** 20 / ((performance.now() - started) / 1000);
}

async function uploadFile(base: string, token: string, file: string, size: number): Promise<string> {
  const id = await startUpload(base, token, path.basename(file), size);
  await sendPartsHttp(base, id, token, file, size);
  return completeUpload(base, token, id);
}

/** Pages with a line of text each: every page is a parser task. */
async function manyPagePdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont('Helvetica');
  for (let i = 1; i <= pages; i++)
    doc.addPage([595, 842]).drawText(`Page ${i}`, { x: 72, y: 720, size: 12, font });
  return doc.save();
}
