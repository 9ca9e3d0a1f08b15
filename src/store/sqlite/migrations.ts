import { LEDGER_FACTS, LEGACY_ERROR_CODES, LEGACY_MULTIPART_IDS } from '../migration-steps.js';

/**
 * Versioned schema. A migration is applied once, in order, inside a transaction, and recorded in
 * schema_migrations; never edit one that has shipped, add the next.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Rebuilds a table others refer to: applied with foreign keys off, and checked before it commits. */
  rebuildsTables?: boolean;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'tenants, users, tokens',
    sql: `
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        currency TEXT NOT NULL,
        price_per_point INTEGER NOT NULL,
        run_seq INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        name TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX users_tenant ON users(tenant_id, created_at);
      CREATE TABLE api_tokens (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        user_id TEXT NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        expires_at TEXT,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX api_tokens_tenant ON api_tokens(tenant_id, created_at);
    `,
  },
  {
    version: 2,
    name: 'uploads and files',
    sql: `
      CREATE TABLE uploads (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        file_name TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        content_type TEXT NOT NULL,
        sha256 TEXT,
        part_size INTEGER NOT NULL,
        part_count INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'completed')),
        file_id TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX uploads_pending_expiry ON uploads(expires_at) WHERE status = 'pending';
      CREATE TABLE upload_parts (
        upload_id TEXT NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        part_number INTEGER NOT NULL,
        size_bytes INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (upload_id, part_number)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE files (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        upload_id TEXT NOT NULL UNIQUE,
        file_name TEXT NOT NULL,
        size_bytes INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        page_count INTEGER,
        pdf_version TEXT,
        encrypted INTEGER NOT NULL,
        storage_key TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 3,
    name: 'runs and their queue',
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        seq INTEGER NOT NULL,
        file_id TEXT NOT NULL REFERENCES files(id),
        user_id TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_by_type TEXT NOT NULL,
        target TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        progress INTEGER NOT NULL,
        total_tasks INTEGER NOT NULL,
        completed_tasks INTEGER NOT NULL,
        failed_tasks INTEGER NOT NULL,
        points_consumed INTEGER NOT NULL,
        input_file_name TEXT NOT NULL,
        output_files TEXT NOT NULL,
        error TEXT,
        attempt INTEGER NOT NULL,
        queue_message_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT
      ) STRICT;
      -- seq numbers a tenant's runs 1..n in creation order; runs are never deleted, so the row at offset k
      -- of the newest-first list is seq = n - k, found by the index without walking k rows.
      CREATE UNIQUE INDEX runs_tenant_seq ON runs(tenant_id, seq DESC);
      CREATE INDEX runs_tenant_status ON runs(tenant_id, status, seq DESC);
      CREATE INDEX runs_tenant_target ON runs(tenant_id, target, seq DESC);
      CREATE INDEX runs_tenant_status_target ON runs(tenant_id, status, target, seq DESC);
      -- exact totals for the list without COUNT(*): kept in the same transaction as every status change
      CREATE TABLE run_counts (
        tenant_id TEXT NOT NULL,
        status TEXT NOT NULL,
        target TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, status, target)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE run_queue (
        id TEXT PRIMARY KEY,
        run_id TEXT NOT NULL REFERENCES runs(id),
        tenant_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        enqueued_at TEXT NOT NULL,
        lease_owner TEXT,
        lease_until TEXT,
        claims INTEGER NOT NULL DEFAULT 0,
        done_at TEXT
      ) STRICT;
      CREATE INDEX run_queue_open ON run_queue(enqueued_at) WHERE done_at IS NULL;
    `,
  },
  {
    version: 4,
    name: 'revenue ledger',
    sql: `
      CREATE TABLE ledger (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        type TEXT NOT NULL CHECK (type IN ('tech', 'ecosystem')),
        amount INTEGER NOT NULL,
        currency TEXT NOT NULL,
        description TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('run', 'import', 'adjustment')),
        run_id TEXT,
        queue_message_id TEXT UNIQUE,
        external_id TEXT,
        occurred_at TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX ledger_external ON ledger(tenant_id, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX ledger_tenant_time ON ledger(tenant_id, occurred_at DESC, id DESC);
      CREATE INDEX ledger_tenant_type_time ON ledger(tenant_id, type, occurred_at DESC, id DESC);
      -- per-day sums kept in the same transaction as each insert, so the dashboard never scans the ledger
      CREATE TABLE ledger_daily (
        tenant_id TEXT NOT NULL,
        day TEXT NOT NULL,
        type TEXT NOT NULL,
        amount INTEGER NOT NULL,
        tx_count INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, day, type)
      ) STRICT, WITHOUT ROWID;
      -- ledger rows are append-only
      CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
    `,
  },
  {
    version: 5,
    name: 'all-time ledger totals',
    sql: `
      -- the all-time figures of the dashboard and the unbounded transaction count, kept like ledger_daily
      CREATE TABLE ledger_totals (
        tenant_id TEXT NOT NULL,
        type TEXT NOT NULL,
        amount INTEGER NOT NULL,
        tx_count INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, type)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO ledger_totals (tenant_id, type, amount, tx_count)
        SELECT tenant_id, type, SUM(amount), SUM(tx_count) FROM ledger_daily GROUP BY tenant_id, type;
    `,
  },
  {
    version: 6,
    name: 'cancelled runs; claiming fair across tenants',
    rebuildsTables: true,
    sql: `
      CREATE TABLE runs_new (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        seq INTEGER NOT NULL,
        file_id TEXT NOT NULL REFERENCES files(id),
        user_id TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_by_type TEXT NOT NULL,
        target TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        progress INTEGER NOT NULL,
        total_tasks INTEGER NOT NULL,
        completed_tasks INTEGER NOT NULL,
        failed_tasks INTEGER NOT NULL,
        points_consumed INTEGER NOT NULL,
        input_file_name TEXT NOT NULL,
        output_files TEXT NOT NULL,
        error TEXT,
        attempt INTEGER NOT NULL,
        queue_message_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT
      ) STRICT;
      INSERT INTO runs_new SELECT id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status,
        progress, total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error,
        attempt, queue_message_id, created_at, started_at, completed_at FROM runs ORDER BY rowid;
      DROP TABLE runs;
      ALTER TABLE runs_new RENAME TO runs;
      CREATE UNIQUE INDEX runs_tenant_seq ON runs(tenant_id, seq DESC);
      CREATE INDEX runs_tenant_status ON runs(tenant_id, status, seq DESC);
      CREATE INDEX runs_tenant_target ON runs(tenant_id, target, seq DESC);
      CREATE INDEX runs_tenant_status_target ON runs(tenant_id, status, target, seq DESC);
      -- a claim picks the tenant first, then that tenant's oldest waiting entry
      CREATE INDEX run_queue_tenant_open ON run_queue(tenant_id, enqueued_at) WHERE done_at IS NULL;
    `,
  },
  {
    version: 7,
    name: 'pending uploads per tenant',
    sql: `
      CREATE INDEX uploads_tenant_pending ON uploads(tenant_id, expires_at) WHERE status = 'pending';
    `,
  },
  {
    version: 8,
    name: 'ledger magnitude per tenant',
    sql: `
      -- the sum of |amount| bounds every partial sum the dashboard shows: kept under 2^53 by every append
      ALTER TABLE ledger_totals ADD COLUMN abs_amount INTEGER NOT NULL DEFAULT 0;
      UPDATE ledger_totals SET abs_amount = (
        SELECT COALESCE(SUM(ABS(amount)), 0) FROM ledger
        WHERE ledger.tenant_id = ledger_totals.tenant_id AND ledger.type = ledger_totals.type);
    `,
  },
  {
    version: 9,
    name: 'run counts per block of 1024 sequence numbers',
    sql: `
      -- a filtered page at offset k: these counts find the block holding it without walking k index entries,
      -- then at most one block of the index is walked. Kept by triggers in every transaction that writes runs.
      CREATE TABLE run_blocks (
        tenant_id TEXT NOT NULL,
        status TEXT NOT NULL,
        target TEXT NOT NULL,
        block INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, status, target, block)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX run_blocks_target ON run_blocks(tenant_id, target, block);
      INSERT INTO run_blocks (tenant_id, status, target, block, n)
        SELECT tenant_id, status, target, seq >> 10, COUNT(*) FROM runs GROUP BY tenant_id, status, target, seq >> 10;
      CREATE TRIGGER run_blocks_insert AFTER INSERT ON runs BEGIN
        INSERT INTO run_blocks (tenant_id, status, target, block, n) VALUES (new.tenant_id, new.status, new.target, new.seq >> 10, 1)
          ON CONFLICT (tenant_id, status, target, block) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER run_blocks_status AFTER UPDATE OF status ON runs WHEN old.status <> new.status BEGIN
        UPDATE run_blocks SET n = n - 1
          WHERE tenant_id = old.tenant_id AND status = old.status AND target = old.target AND block = old.seq >> 10;
        INSERT INTO run_blocks (tenant_id, status, target, block, n) VALUES (new.tenant_id, new.status, new.target, new.seq >> 10, 1)
          ON CONFLICT (tenant_id, status, target, block) DO UPDATE SET n = n + 1;
      END;
    `,
  },
  {
    version: 10,
    name: 'run records serialized at write time',
    rebuildsTables: true,
    sql: `
      -- the contract's Run as JSON, written with every change (since migration 16 by src/records/run.ts): a list
      -- page reads one string per row instead of building 21 fields into JSON on every request (about 50 -> 16 µs
      -- for 20 rows)
      CREATE TABLE runs_new (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        seq INTEGER NOT NULL,
        file_id TEXT NOT NULL REFERENCES files(id),
        user_id TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_by_type TEXT NOT NULL,
        target TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        progress INTEGER NOT NULL,
        total_tasks INTEGER NOT NULL,
        completed_tasks INTEGER NOT NULL,
        failed_tasks INTEGER NOT NULL,
        points_consumed INTEGER NOT NULL,
        input_file_name TEXT NOT NULL,
        output_files TEXT NOT NULL,
        error TEXT,
        attempt INTEGER NOT NULL,
        queue_message_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT,
        record TEXT NOT NULL DEFAULT ''
      ) STRICT;
      INSERT INTO runs_new (id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status,
        progress, total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error,
        attempt, queue_message_id, created_at, started_at, completed_at)
        SELECT id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status,
        progress, total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error,
        attempt, queue_message_id, created_at, started_at, completed_at FROM runs ORDER BY rowid;
      DROP TABLE runs;
      ALTER TABLE runs_new RENAME TO runs;
      CREATE UNIQUE INDEX runs_tenant_seq ON runs(tenant_id, seq DESC);
      CREATE INDEX runs_tenant_status ON runs(tenant_id, status, seq DESC);
      CREATE INDEX runs_tenant_target ON runs(tenant_id, target, seq DESC);
      CREATE INDEX runs_tenant_status_target ON runs(tenant_id, status, target, seq DESC);
      -- the triggers of migration 9 went with the old table
      CREATE TRIGGER run_blocks_insert AFTER INSERT ON runs BEGIN
        INSERT INTO run_blocks (tenant_id, status, target, block, n) VALUES (new.tenant_id, new.status, new.target, new.seq >> 10, 1)
          ON CONFLICT (tenant_id, status, target, block) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER run_blocks_status AFTER UPDATE OF status ON runs WHEN old.status <> new.status BEGIN
        UPDATE run_blocks SET n = n - 1
          WHERE tenant_id = old.tenant_id AND status = old.status AND target = old.target AND block = old.seq >> 10;
        INSERT INTO run_blocks (tenant_id, status, target, block, n) VALUES (new.tenant_id, new.status, new.target, new.seq >> 10, 1)
          ON CONFLICT (tenant_id, status, target, block) DO UPDATE SET n = n + 1;
      END;
    `,
  },
  {
    version: 11,
    name: 'uploads: the blob store multipart id, and a lease shared by processes',
    sql: `
      ALTER TABLE uploads ADD COLUMN multipart_id TEXT;
      ALTER TABLE uploads ADD COLUMN lease_holder TEXT;
      ALTER TABLE uploads ADD COLUMN leased_until TEXT;
    `,
  },
  {
    version: 12,
    name: 'idempotency keys: the answer to replay, and the effect recorded with the effect',
    sql: `
      CREATE TABLE idempotency_keys (
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        lock_token TEXT NOT NULL,
        locked_until TEXT NOT NULL,
        resource_id TEXT,
        status INTEGER,
        headers TEXT,
        body TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, key)
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    `,
  },
  {
    version: 13,
    name: 'events (the outbox of state changes), webhook endpoints, deliveries and their attempts',
    sql: `
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        type TEXT NOT NULL,
        created_at TEXT NOT NULL,
        body TEXT NOT NULL
      ) STRICT;
      CREATE INDEX events_tenant ON events(tenant_id, seq);
      CREATE INDEX events_tenant_type ON events(tenant_id, type, seq);
      CREATE INDEX events_tenant_time ON events(tenant_id, created_at);
      CREATE INDEX events_time ON events(created_at);
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        url TEXT NOT NULL,
        events TEXT,
        description TEXT,
        status TEXT NOT NULL,
        secret TEXT NOT NULL,
        previous_secret TEXT,
        previous_secret_until TEXT,
        failing_since TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints(tenant_id, created_at);
      CREATE TABLE webhook_deliveries (
        endpoint_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        lease_owner TEXT,
        lease_until TEXT,
        status TEXT NOT NULL,
        PRIMARY KEY (endpoint_id, event_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(tenant_id, next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(lease_until) WHERE lease_until IS NOT NULL;
      CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
      CREATE TABLE webhook_attempts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        endpoint_id TEXT NOT NULL,
        tenant_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        attempted_at TEXT NOT NULL,
        status_code INTEGER,
        error TEXT,
        duration_ms INTEGER NOT NULL,
        response_body TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, seq);
      CREATE INDEX webhook_attempts_time ON webhook_attempts(attempted_at);
    `,
  },
  {
    version: 14,
    name: 'run options',
    rebuildsTables: true,
    sql: `
      -- a run's options (per target, validated by the API) join it
      CREATE TABLE runs_new (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        seq INTEGER NOT NULL,
        file_id TEXT NOT NULL REFERENCES files(id),
        user_id TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_by_type TEXT NOT NULL,
        target TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        progress INTEGER NOT NULL,
        total_tasks INTEGER NOT NULL,
        completed_tasks INTEGER NOT NULL,
        failed_tasks INTEGER NOT NULL,
        points_consumed INTEGER NOT NULL,
        input_file_name TEXT NOT NULL,
        output_files TEXT NOT NULL,
        error TEXT,
        attempt INTEGER NOT NULL,
        queue_message_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT,
        options TEXT NOT NULL DEFAULT '{}',
        record TEXT NOT NULL DEFAULT ''
      ) STRICT;
      INSERT INTO runs_new (id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status,
        progress, total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error,
        attempt, queue_message_id, created_at, started_at, completed_at, options)
        SELECT id, tenant_id, seq, file_id, user_id, created_by, created_by_type, target, status,
        progress, total_tasks, completed_tasks, failed_tasks, points_consumed, input_file_name, output_files, error,
        attempt, queue_message_id, created_at, started_at, completed_at, '{}' FROM runs ORDER BY rowid;
      DROP TABLE runs;
      ALTER TABLE runs_new RENAME TO runs;
      CREATE UNIQUE INDEX runs_tenant_seq ON runs(tenant_id, seq DESC);
      CREATE INDEX runs_tenant_status ON runs(tenant_id, status, seq DESC);
      CREATE INDEX runs_tenant_target ON runs(tenant_id, target, seq DESC);
      CREATE INDEX runs_tenant_status_target ON runs(tenant_id, status, target, seq DESC);
      -- the triggers of migration 9 went with the old table again
      CREATE TRIGGER run_blocks_insert AFTER INSERT ON runs BEGIN
        INSERT INTO run_blocks (tenant_id, status, target, block, n) VALUES (new.tenant_id, new.status, new.target, new.seq >> 10, 1)
          ON CONFLICT (tenant_id, status, target, block) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER run_blocks_status AFTER UPDATE OF status ON runs WHEN old.status <> new.status BEGIN
        UPDATE run_blocks SET n = n - 1
          WHERE tenant_id = old.tenant_id AND status = old.status AND target = old.target AND block = old.seq >> 10;
        INSERT INTO run_blocks (tenant_id, status, target, block, n) VALUES (new.tenant_id, new.status, new.target, new.seq >> 10, 1)
          ON CONFLICT (tenant_id, status, target, block) DO UPDATE SET n = n + 1;
      END;
      -- a run event's data is the run as GET answered it: events written before options existed gain its default
      UPDATE events SET body = json_set(body, '$.data.options', json('{}'))
        WHERE type LIKE 'run.%' AND json_type(body, '$.data.options') IS NULL;
    `,
  },
  {
    version: 15,
    name: 'events read by their place in the log, not by time; deliveries due per endpoint',
    sql: `
      -- live streams read by position (seq), never by time: the per-tenant time index has no reader
      DROP INDEX events_tenant_time;
      -- a claim reads each endpoint's soonest due deliveries, skipping endpoints at their limit
      CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries(endpoint_id, next_attempt_at)
        WHERE status = 'pending';
    `,
  },
  {
    version: 16,
    name: 'the JSON of runs and transactions written by the service, with the version of the view that wrote it; error codes; every upload with its multipart id',
    sql: `
      -- the Run is built by src/records/run.ts, which writes it on every change; a change of the view rewrites
      -- the stored copies at start (record_view below the view's version), without a migration
      ALTER TABLE runs DROP COLUMN record;
      ALTER TABLE runs ADD COLUMN error_code TEXT;
      ALTER TABLE runs ADD COLUMN record TEXT NOT NULL DEFAULT '';
      ALTER TABLE runs ADD COLUMN record_view INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ledger ADD COLUMN record TEXT NOT NULL DEFAULT '';
      ALTER TABLE ledger ADD COLUMN record_view INTEGER NOT NULL DEFAULT 0;
      -- the version of each view whose copies are all written: a start with nothing to rewrite reads one row
      CREATE TABLE stored_views (name TEXT PRIMARY KEY, version INTEGER NOT NULL) STRICT;
      -- the codes of the runs that ended before codes were kept, from the messages they ended with
      ${LEGACY_ERROR_CODES}
      ${LEGACY_MULTIPART_IDS}
      -- a ledger row's facts never change: only its stored JSON is rewritten, by a newer view
      DROP TRIGGER ledger_no_update;
      CREATE TRIGGER ledger_no_update BEFORE UPDATE OF ${LEDGER_FACTS} ON ledger
        BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
    `,
  },
  {
    version: 17,
    name: 'the scopes of each API token (null: every scope, as every token issued before)',
    sql: `ALTER TABLE api_tokens ADD COLUMN scopes TEXT;`,
  },
  {
    version: 18,
    name: 'a tenant can be suspended: its tokens are refused and its queued runs wait',
    sql: `ALTER TABLE tenants ADD COLUMN suspended_at TEXT;`,
  },
  {
    version: 19,
    name: "the platform's admin API: admin tokens, the audit trail, and idempotency keys an admin token owns",
    rebuildsTables: true,
    sql: `
      CREATE TABLE admin_tokens (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE admin_audit (
        id TEXT PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        admin_token_id TEXT REFERENCES admin_tokens(id),
        action TEXT NOT NULL,
        tenant_id TEXT REFERENCES tenants(id),
        target_id TEXT,
        request_id TEXT,
        detail TEXT
      );
      CREATE INDEX admin_audit_order ON admin_audit(at, id);
      CREATE INDEX admin_audit_tenant ON admin_audit(tenant_id, at, id);
      CREATE TABLE idempotency_keys_owned (
        tenant_id TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        lock_token TEXT NOT NULL,
        locked_until TEXT NOT NULL,
        resource_id TEXT,
        status INTEGER,
        headers TEXT,
        body TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, key)
      ) WITHOUT ROWID;
      INSERT INTO idempotency_keys_owned SELECT tenant_id, key, fingerprint, lock_token, locked_until,
        resource_id, status, headers, body, created_at, expires_at FROM idempotency_keys;
      DROP TABLE idempotency_keys;
      ALTER TABLE idempotency_keys_owned RENAME TO idempotency_keys;
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    `,
  },
  {
    version: 20,
    name: "the time of each tenant's newest ledger entry per type, kept with the totals for the dashboard",
    sql: `
      ALTER TABLE ledger_totals ADD COLUMN latest_at TEXT;
      UPDATE ledger_totals SET latest_at = (
        SELECT MAX(occurred_at) FROM ledger
        WHERE ledger.tenant_id = ledger_totals.tenant_id AND ledger.type = ledger_totals.type);
    `,
  },
  {
    version: 21,
    name: "one row of daily sums per tenant and day, both types' sums and counts side by side",
    sql: `
      -- The dashboard reads ~60 days of sums and the transactions page counts ~90: with a row per type they
      -- read twice the rows and the dashboard summed them per day (at 10,000 ledger rows a tenant, 37 against
      -- 13 us for the dashboard's days, 15 against 6.5 us for a count).
      CREATE TABLE ledger_days (
        tenant_id TEXT NOT NULL,
        day TEXT NOT NULL,
        tech INTEGER NOT NULL,
        ecosystem INTEGER NOT NULL,
        tech_count INTEGER NOT NULL,
        ecosystem_count INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, day)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO ledger_days (tenant_id, day, tech, ecosystem, tech_count, ecosystem_count)
        SELECT tenant_id, day,
          COALESCE(SUM(amount) FILTER (WHERE type = 'tech'), 0),
          COALESCE(SUM(amount) FILTER (WHERE type = 'ecosystem'), 0),
          COALESCE(SUM(tx_count) FILTER (WHERE type = 'tech'), 0),
          COALESCE(SUM(tx_count) FILTER (WHERE type = 'ecosystem'), 0)
        FROM ledger_daily GROUP BY tenant_id, day;
      DROP TABLE ledger_daily;
    `,
  },
  {
    version: 22,
    name: "a transactions page of one type read from its index alone: the index holds each row's stored JSON",
    sql: `
      -- A page of one type read each row's JSON from the table: a search of the table's b-tree per row, in
      -- another part of the file for every tenant (a page of 20 at offset 40 among 1,000,000 rows of 100
      -- tenants, a random tenant each time: 15.6 against 8.6 us with the JSON in the index). The price is a
      -- second copy of the JSON (~330 bytes a row) in the index. Pages of both types keep their own index.
      DROP INDEX ledger_tenant_type_time;
      CREATE INDEX ledger_tenant_type_time ON ledger(tenant_id, type, occurred_at DESC, id DESC, record);
    `,
  },
  {
    version: 23,
    name: "a deep page of one target finds its block from the target's block counts alone",
    sql: `
      -- A deep page filtered by target sums the counts of every block of the target, over every status: the
      -- index gave the blocks in order, and each count was a search of the table (500,000 runs, 80 % deep:
      -- 671 against 301 us with the count in the index). A count changes with every run created or moved,
      -- and so now does its index entry.
      DROP INDEX run_blocks_target;
      CREATE INDEX run_blocks_target ON run_blocks(tenant_id, target, block, n);
    `,
  },
  {
    version: 24,
    name: "dated API versions: each tenant's pinned version, and the version each webhook endpoint was made at",
    sql: `
      -- tenants and endpoints from before dated versions were built against the contract of 2026-11-29
      ALTER TABLE tenants ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-29';
      ALTER TABLE webhook_endpoints ADD COLUMN api_version TEXT NOT NULL DEFAULT '2026-11-29';
    `,
  },
  {
    version: 25,
    name: 'the audit trail in commit order: each row its place, for cursors that never skip or repeat a row',
    sql: `
      -- the rows written before keep the order they were listed in (by time, then id)
      ALTER TABLE admin_audit ADD COLUMN seq INTEGER;
      UPDATE admin_audit SET seq = placed.n
        FROM (SELECT id, row_number() OVER (ORDER BY at, id) AS n FROM admin_audit) AS placed
        WHERE admin_audit.id = placed.id;
      CREATE UNIQUE INDEX admin_audit_seq ON admin_audit(seq);
      DROP INDEX admin_audit_order;
      DROP INDEX admin_audit_tenant;
      CREATE INDEX admin_audit_tenant ON admin_audit(tenant_id, seq);
      CREATE INDEX admin_audit_action ON admin_audit(action, seq);
    `,
  },
  {
    version: 26,
    name: 'admin tokens with scopes and an expiry, issued over the admin API',
    sql: `
      -- NULL: every scope, as every admin token issued before scopes existed holds
      ALTER TABLE admin_tokens ADD COLUMN scopes TEXT;
      ALTER TABLE admin_tokens ADD COLUMN expires_at TEXT;
    `,
  },
  {
    version: 27,
    name: "tenants with the platform's own id and metadata",
    sql: `
      ALTER TABLE tenants ADD COLUMN external_id TEXT;
      ALTER TABLE tenants ADD COLUMN metadata text NOT NULL DEFAULT '{}';
      CREATE UNIQUE INDEX tenants_external_id ON tenants(external_id) WHERE external_id IS NOT NULL;
    `,
  },
  {
    version: 28,
    name: 'offboarding: a tenant marked for deletion, its exports, and an audit trail that outlives the tenants it names',
    rebuildsTables: true,
    sql: `
      ALTER TABLE tenants ADD COLUMN deletion_requested_at TEXT;
      ALTER TABLE tenants ADD COLUMN erase_at TEXT;
      -- set only inside the transaction that erases the tenant: the one time its ledger rows may go
      ALTER TABLE tenants ADD COLUMN erasing_at TEXT;
      CREATE INDEX tenants_erase_at ON tenants(erase_at) WHERE erase_at IS NOT NULL;
      DROP TRIGGER ledger_no_delete;
      CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
        WHEN (SELECT erasing_at FROM tenants WHERE id = old.tenant_id) IS NULL
        BEGIN SELECT RAISE(ABORT, 'ledger is append-only'); END;
      CREATE TABLE tenant_exports (
        id TEXT PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id),
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        entries_done INTEGER NOT NULL DEFAULT 0,
        entries_total INTEGER,
        size_bytes INTEGER,
        sha256 TEXT,
        storage_key TEXT NOT NULL,
        error_code TEXT,
        error_message TEXT,
        lease_owner TEXT,
        lease_until TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT
      ) STRICT;
      CREATE INDEX tenant_exports_tenant ON tenant_exports(tenant_id, created_at);
      CREATE INDEX tenant_exports_open ON tenant_exports(created_at) WHERE status IN ('queued', 'running');
      -- the trail keeps the rows of an erased tenant (without their detail): its tenant_id names no row then
      CREATE TABLE admin_audit_new (
        id TEXT PRIMARY KEY,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        admin_token_id TEXT REFERENCES admin_tokens(id),
        action TEXT NOT NULL,
        tenant_id TEXT,
        target_id TEXT,
        request_id TEXT,
        detail TEXT,
        seq INTEGER
      );
      INSERT INTO admin_audit_new (id, at, actor, admin_token_id, action, tenant_id, target_id, request_id, detail, seq)
        SELECT id, at, actor, admin_token_id, action, tenant_id, target_id, request_id, detail, seq FROM admin_audit;
      DROP TABLE admin_audit;
      ALTER TABLE admin_audit_new RENAME TO admin_audit;
      CREATE UNIQUE INDEX admin_audit_seq ON admin_audit(seq);
      CREATE INDEX admin_audit_tenant ON admin_audit(tenant_id, seq);
      CREATE INDEX admin_audit_action ON admin_audit(action, seq);
    `,
  },
];
