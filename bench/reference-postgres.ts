import { createServer } from 'node:http';
import pg from 'pg';

/**
 * The PostgreSQL ceiling, in one bare node:http process: GET /runs?limit=&offset=[&status=][&target=] with
 * `x-tenant-id` answers the same page of the run list from the same database as the service, with no
 * framework, no auth and no validation: the rows by the same index, the total from the same counters, the
 * JSON made by JSON.stringify. A pool of 10 connections, as the service's default.
 */
const [url = 'postgres://postgres@127.0.0.1:5432/postgres', port = '8091'] = process.argv.slice(2);
const int8AsNumber = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return Number;
    return pg.types.getTypeParser(oid, format);
  },
};
const pool = new pg.Pool({ connectionString: url, max: 10, types: int8AsNumber });
const columns = `id, tenant_id, file_id, user_id, created_by, created_by_type, target, status, progress, total_tasks,
  completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error, attempt, queue_message_id,
  created_at, started_at, completed_at`;

createServer(async (req, res) => {
  const query = new URL(req.url ?? '/', 'http://x');
  if (query.pathname === '/ping') return void res.end('ok');
  if (req.method !== 'GET' || query.pathname !== '/runs') return void res.writeHead(404).end();
  const tenant = String(req.headers['x-tenant-id']);
  const limit = Number(query.searchParams.get('limit') ?? 20);
  const offset = Number(query.searchParams.get('offset') ?? 0);
  const status = query.searchParams.get('status');
  const target = query.searchParams.get('target');
  const where = ['tenant_id = $1'];
  const values: unknown[] = [tenant];
  if (status) where.push(`status = $${values.push(status)}`);
  if (target) where.push(`target = $${values.push(target)}`);
  const key = `${!!status}${!!target}`;
  try {
    const [rows, total] = await Promise.all([
      pool.query({
        name: `page${key}`,
        text: `SELECT ${columns} FROM runs WHERE ${where.join(' AND ')} ORDER BY seq DESC
               LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        values: [...values, limit, offset],
      }),
      pool.query<{ n: number }>({
        name: `total${key}`,
        text: `SELECT COALESCE(SUM(n), 0)::bigint AS n FROM run_counts WHERE ${where.join(' AND ')}`,
        values,
      }),
    ]);
    const n = total.rows[0]!.n;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        code: 0,
        message: 'OK',
        data: rows.rows,
        total: n,
        page: Math.floor(offset / limit) + 1,
        page_size: limit,
        total_pages: Math.ceil(n / limit),
        timestamp: Date.now(),
      }),
    );
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
