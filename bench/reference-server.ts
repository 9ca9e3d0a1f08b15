import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';

/**
 * The ceilings our stack is measured against, in one bare node:http process:
 * - GET /runs?limit=&offset=[&status=][&target=] with `x-tenant-id`: the same page of the run list from the
 *   same database, with no framework, no auth, no validation and the total read from the precomputed counters;
 * - PUT /upload/<name>: a request body streamed to disk while hashed, nothing else.
 */
const [dataDir = './data', port = '8090'] = process.argv.slice(2);
const db = new Database(path.join(dataDir, 'open-tenant.sqlite'), { readonly: true });
const columns = `id, tenant_id, file_id, user_id, created_by, created_by_type, target, status, progress, total_tasks,
  completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error, attempt, queue_message_id,
  created_at, started_at, completed_at`;
const page = db.prepare(`SELECT ${columns} FROM runs WHERE tenant_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?`);
const total = db.prepare('SELECT run_seq AS n FROM tenants WHERE id = ?');
// a filter's page and total, on the same indexes and counters the service has
const filteredPage = (where: string) =>
  db.prepare(
    `SELECT ${columns} FROM runs WHERE tenant_id = @tenant AND ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
  );
const filteredTotal = (where: string) =>
  db.prepare(`SELECT COALESCE(SUM(n), 0) AS n FROM run_counts WHERE tenant_id = @tenant AND ${where}`);
const byFilter = {
  status: { page: filteredPage('status = @status'), total: filteredTotal('status = @status') },
  target: { page: filteredPage('target = @target'), total: filteredTotal('target = @target') },
  both: {
    page: filteredPage('status = @status AND target = @target'),
    total: filteredTotal('status = @status AND target = @target'),
  },
};
const uploads = path.join(dataDir, 'reference-uploads');
mkdirSync(uploads, { recursive: true });

createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (req.method === 'GET' && url.pathname === '/runs') {
    const tenant = String(req.headers['x-tenant-id']);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const status = url.searchParams.get('status');
    const target = url.searchParams.get('target');
    const filter =
      status && target ? byFilter.both : status ? byFilter.status : target ? byFilter.target : null;
    const params = { tenant, limit, offset, status, target };
    const found = (filter ? filter.page.all(params) : page.all(tenant, limit, offset)) as {
      output_files: string;
    }[];
    const rows = found.map((r) => ({ ...r, output_files: JSON.parse(r.output_files) }));
    const n = ((filter ? filter.total.get(params) : total.get(tenant)) as { n: number }).n;
    const body = JSON.stringify({
      code: 0,
      message: 'OK',
      data: rows,
      total: n,
      page: Math.floor(offset / limit) + 1,
      page_size: limit,
      total_pages: Math.ceil(n / limit),
      timestamp: Date.now(),
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    return;
  }
  if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) {
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(req, meter, createWriteStream(path.join(uploads, path.basename(url.pathname))));
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ size, sha256: hash.digest('hex') }));
    return;
  }
  res.writeHead(404).end();
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
