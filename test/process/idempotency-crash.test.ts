import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../helpers/files.js';
import { engine } from '../helpers/engine.js';
import {
  admin,
  port,
  queryDeployment,
  startServerProcess,
  tempDataDir,
  uploadWhole,
  cleanedAfterEach,
  newTenant,
} from '../helpers/processes.js';

const { started, dirs } = cleanedAfterEach();

/**
 * When the stall comes: as the answer is stored (`status` set), or, for an answer never kept because it
 * shows a secret, as the key is let go with its effect recorded (`locked_until` set).
 */
type StallMoment = 'answer' | 'release';
const STALLS: Record<StallMoment, { column: string; when: string }> = {
  answer: { column: 'status', when: 'NEW.status IS NOT NULL' },
  release: { column: 'locked_until', when: 'NEW.resource_id IS NOT NULL' },
};

/**
 * Makes storing an idempotent answer take far longer than the test waits, so that the server can be killed
 * after the effect committed and before its answer is stored: SQLite's writer is this process's own thread,
 * stalled by a join of 30,000 x 30,000 rows; PostgreSQL's statement sleeps.
 */
async function stallStoredAnswers(dataDir: string, moment: StallMoment = 'answer'): Promise<void> {
  const { column, when } = STALLS[moment];
  if (engine === 'postgres') {
    await queryDeployment(
      dataDir,
      `CREATE FUNCTION stall_answer() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_sleep(60); RETURN NEW; END $$`,
    );
    await queryDeployment(
      dataDir,
      `CREATE TRIGGER stall_answer BEFORE UPDATE OF ${column} ON idempotency_keys
       FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION stall_answer()`,
    );
    return;
  }
  await queryDeployment(dataDir, 'CREATE TABLE stall_rows (n INTEGER)');
  await queryDeployment(
    dataDir,
    `INSERT INTO stall_rows (n) SELECT value FROM generate_series(1, 30000)`,
  ).catch(async () => {
    // without the series extension: doubling from one row
    await queryDeployment(dataDir, 'INSERT INTO stall_rows (n) VALUES (1)');
    while (
      (await queryDeployment<{ n: number }>(dataDir, 'SELECT COUNT(*) AS n FROM stall_rows'))[0]!.n < 30000
    )
      await queryDeployment(dataDir, 'INSERT INTO stall_rows (n) SELECT n FROM stall_rows');
  });
  await queryDeployment(
    dataDir,
    `CREATE TRIGGER stall_answer BEFORE UPDATE OF ${column} ON idempotency_keys WHEN ${when} BEGIN
       SELECT COUNT(*) FROM stall_rows a, stall_rows b;
     END`,
  );
}

async function removeStall(dataDir: string): Promise<void> {
  if (engine === 'postgres') {
    // PostgreSQL notices that its client died only when it next writes to it: the statement sleeping in
    // the trigger would hold the key's row for a minute. Ending it is what a statement that did not sleep
    // would have done by now (a statement that was sent commits or not whether or not its client lives).
    await queryDeployment(
      dataDir,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE pid <> pg_backend_pid() AND query LIKE '%UPDATE idempotency_keys SET%'`,
    );
  }
  await queryDeployment(
    dataDir,
    'DROP TRIGGER stall_answer' + (engine === 'postgres' ? ' ON idempotency_keys' : ''),
  );
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The resource the request holding `key` recorded as its effect, once it has committed it. */
const effectRecordedOn = (dataDir: string, key: string) =>
  until(async () => {
    const [row] = await queryDeployment<{ resource_id: string | null }>(
      dataDir,
      'SELECT resource_id FROM idempotency_keys WHERE key = ?',
      [key],
    );
    return row?.resource_id ?? undefined;
  }, 20_000);

/** The retry's answer once the dead request's lock has run out (until then: 409, the key in use). */
const retryPastLock = (send: () => Promise<Response>) =>
  until(async () => {
    const res = await send();
    if (res.status === 409) return undefined;
    return { status: res.status, replayed: res.headers.get('idempotent-replayed'), text: await res.text() };
  }, 10_000);

describe("a server killed between a POST's effect and its stored answer", () => {
  it('lets the retry answer from the effect: one run, never two', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'retry');
    const env = {
      PARSER_THREADS: '0',
      IDEMPOTENCY_LOCK_SECONDS: '1',
      DATABASE_STATEMENT_TIMEOUT_MS: '120000',
    };
    const first = await startServerProcess(dataDir, port(), env);
    started.push(first);
    const fileId = await uploadWhole(first.url, tenant.token, readPdf('real/cups-filters__classified.pdf'));
    await stallStoredAnswers(dataDir);

    const key = randomUUID();
    const send = (url: string) =>
      fetch(`${url}/api/open/runs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tenant.token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ file_id: fileId, target: 'pdf-text' }),
      });
    const lost = send(first.url).then(
      () => 'answered',
      () => 'no answer',
    );
    // the run and its record on the key committed together; the answer is being stored now
    const runId = await effectRecordedOn(dataDir, key);
    await first.kill('SIGKILL');
    expect(await lost).toBe('no answer');
    const [kept] = await queryDeployment<{ status: number | null }>(
      dataDir,
      'SELECT status FROM idempotency_keys WHERE key = ?',
      [key],
    );
    expect(kept!.status).toBeNull();

    await removeStall(dataDir);
    const second = await startServerProcess(dataDir, port(), env);
    started.push(second);
    // the dead request's lock runs out within IDEMPOTENCY_LOCK_SECONDS; until then the key is in use
    const retried = await retryPastLock(() => send(second.url));
    expect(retried.status, retried.text).toBe(201);
    expect(retried.replayed).toBe('true');
    expect(JSON.parse(retried.text).data.id).toBe(runId);
    const runs = await queryDeployment<{ n: number }>(
      dataDir,
      'SELECT COUNT(*) AS n FROM runs WHERE tenant_id = ?',
      [tenant.tenant_id],
    );
    expect(Number(runs[0]!.n)).toBe(1);
    // the rebuilt answer is now the key's answer
    const again = await send(second.url);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(retried.text);
  });
});

describe("a server killed between a webhook endpoint POST's effect and its stored answer", () => {
  const env = {
    PARSER_THREADS: '0',
    IDEMPOTENCY_LOCK_SECONDS: '1',
    DATABASE_STATEMENT_TIMEOUT_MS: '120000',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  interface Endpoint {
    id: string;
    secret: string;
    previous_secret: string | null;
    status: string;
  }
  const endpoints = (dataDir: string, tenantId: string) =>
    queryDeployment<Endpoint>(
      dataDir,
      'SELECT id, secret, previous_secret, status FROM webhook_endpoints WHERE tenant_id = ?',
      [tenantId],
    );

  it.each(['createWebhookEndpoint', 'rotateWebhookSecret', 'enableWebhookEndpoint'] as const)(
    '%s: the retry answers from the effect, which happened once',
    async (operation) => {
      const dataDir = await tempDataDir();
      dirs.push(dataDir);
      const tenant = await newTenant(dataDir, 'hooks');
      const first = await startServerProcess(dataDir, port(), env);
      started.push(first);
      const call = (url: string, route: string, key?: string) =>
        fetch(`${url}${route}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tenant.token}`,
            'content-type': 'application/json',
            ...(key ? { 'idempotency-key': key } : {}),
          },
          body: route.endsWith('webhook_endpoints')
            ? JSON.stringify({ url: 'http://127.0.0.1:9/h' })
            : undefined,
        });
      let route = '/api/open/webhook_endpoints';
      let before: Endpoint | undefined;
      if (operation !== 'createWebhookEndpoint') {
        expect((await call(first.url, route)).status).toBe(201);
        [before] = await endpoints(dataDir, tenant.tenant_id);
        route += `/${before!.id}/${operation === 'rotateWebhookSecret' ? 'rotate_secret' : 'enable'}`;
        if (operation === 'enableWebhookEndpoint')
          await queryDeployment(dataDir, "UPDATE webhook_endpoints SET status = 'disabled'");
      }
      await stallStoredAnswers(dataDir);

      const key = randomUUID();
      const lost = call(first.url, route, key).then(
        () => 'answered',
        () => 'no answer',
      );
      const resourceId = await effectRecordedOn(dataDir, key);
      await first.kill('SIGKILL');
      expect(await lost).toBe('no answer');
      await removeStall(dataDir);
      const second = await startServerProcess(dataDir, port(), env);
      started.push(second);
      const retried = await retryPastLock(() => call(second.url, route, key));
      expect(retried.status, retried.text).toBe(operation === 'createWebhookEndpoint' ? 201 : 200);
      expect(retried.replayed).toBe('true');
      const answered = JSON.parse(retried.text).data as { id: string; secret?: string; status: string };
      expect(answered.id).toBe(resourceId);

      const after = await endpoints(dataDir, tenant.tenant_id);
      // one endpoint, whose secret is the one the retry was told
      expect(after).toHaveLength(1);
      if (operation !== 'enableWebhookEndpoint') expect(answered.secret).toBe(after[0]!.secret);
      // rotated once: the secret before the rotation still signs, beside the one the retry was told
      if (operation === 'rotateWebhookSecret') {
        expect(after[0]!.previous_secret).toBe(before!.secret);
        expect(after[0]!.secret).not.toBe(before!.secret);
      }
      if (operation === 'enableWebhookEndpoint') expect(after[0]!.status).toBe('enabled');
      const again = await call(second.url, route, key);
      expect(await again.text()).toBe(retried.text);
    },
  );
});

describe("a server killed between an admin POST's effect and its answer, which shows a secret", () => {
  const env = () => ({
    PARSER_THREADS: '0',
    IDEMPOTENCY_LOCK_SECONDS: '1',
    DATABASE_STATEMENT_TIMEOUT_MS: '120000',
    ADMIN_PORT: String(port()),
  });
  interface TokenState {
    id: string;
    tenant_id: string;
    revoked_at: string | null;
  }
  const tokensOf = (dataDir: string, tenantId: string) =>
    queryDeployment<TokenState>(
      dataDir,
      'SELECT id, tenant_id, revoked_at FROM api_tokens WHERE tenant_id = ? ORDER BY created_at, id',
      [tenantId],
    );

  it.each(['adminCreateTenant', 'adminIssueToken'] as const)(
    '%s: the retry gets the one effect with a new secret, and the secret nobody saw is revoked',
    async (operation) => {
      const dataDir = await tempDataDir();
      dirs.push(dataDir);
      const platform = (await admin(dataDir, 'admin-tokens', 'issue', '--name', 'crash', '--json')).json as {
        token: string;
      };
      const existing = await newTenant(dataDir, 'existing');
      const firstEnv = env();
      const first = await startServerProcess(dataDir, port(), firstEnv);
      started.push(first);
      const route =
        operation === 'adminCreateTenant'
          ? '/api/admin/tenants'
          : `/api/admin/tenants/${existing.tenant_id}/tokens`;
      const body = operation === 'adminCreateTenant' ? { name: 'signed-up' } : { name: 'rotated' };
      const send = (adminUrl: string, key: string) =>
        fetch(`${adminUrl}${route}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${platform.token}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify(body),
        });
      await stallStoredAnswers(dataDir, 'release');

      const key = randomUUID();
      const lost = send(`http://127.0.0.1:${firstEnv.ADMIN_PORT}`, key).then(
        () => 'answered',
        () => 'no answer',
      );
      // the tenant or token, its audit row and its record on the key committed together; the key is being
      // let go now, and the answer with the secret is not sent yet
      const unseenTokenId = await effectRecordedOn(dataDir, key);
      await first.kill('SIGKILL');
      expect(await lost).toBe('no answer');

      await removeStall(dataDir);
      const secondEnv = env();
      const second = await startServerProcess(dataDir, port(), secondEnv);
      started.push(second);
      const retried = await retryPastLock(() => send(`http://127.0.0.1:${secondEnv.ADMIN_PORT}`, key));
      expect(retried.status, retried.text).toBe(201);
      expect(retried.replayed).toBe('true');
      const answered = JSON.parse(retried.text).data;
      const token = (operation === 'adminCreateTenant' ? answered.token : answered) as {
        token_id: string;
        tenant_id: string;
        token: string;
      };
      expect(token.token_id).not.toBe(unseenTokenId);

      // one effect: one tenant of that name (or one more token), whose token nobody saw is revoked
      const tenantId = operation === 'adminCreateTenant' ? answered.tenant.tenant_id : existing.tenant_id;
      const named = await queryDeployment<{ id: string }>(dataDir, 'SELECT id FROM tenants WHERE name = ?', [
        'signed-up',
      ]);
      expect(named).toHaveLength(operation === 'adminCreateTenant' ? 1 : 0);
      const tokens = await tokensOf(dataDir, tenantId);
      const created = tokens.filter((t) => t.id !== unseenTokenId && t.id !== token.token_id);
      expect(created).toHaveLength(operation === 'adminCreateTenant' ? 0 : 1); // the tenant's first token
      expect(tokens.find((t) => t.id === unseenTokenId)?.revoked_at).toBeTruthy();
      expect(tokens.find((t) => t.id === token.token_id)?.revoked_at).toBeNull();
      // the secret the retry was told works; the audit trail holds the effect once
      const runs = await fetch(`${second.url}/api/open/runs`, {
        headers: { authorization: `Bearer ${token.token}` },
      });
      expect(runs.status).toBe(200);
      // the trail: the effect once, and the replacement of the secret nobody saw
      const trail = await queryDeployment<{ action: string; target_id: string }>(
        dataDir,
        'SELECT action, target_id FROM admin_audit WHERE tenant_id = ?',
        [tenantId],
      );
      const actions = trail.map((row) => `${row.action} ${row.target_id}`).sort();
      const expected = [
        `tenant.created ${tenantId}`,
        `token.revoked ${unseenTokenId}`,
        `token.issued ${token.token_id}`,
        ...(operation === 'adminIssueToken' ? [`token.issued ${unseenTokenId}`] : []),
      ].sort();
      expect(actions).toEqual(expected);
    },
  );
});
