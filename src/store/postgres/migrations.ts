import { LEDGER_FACTS, LEGACY_ERROR_CODES, LEGACY_MULTIPART_IDS } from '../migration-steps.js';

/**
 * The PostgreSQL schema, versioned like SQLite's (src/store/sqlite/migrations.ts) but not the same history:
 * PostgreSQL started at the shape SQLite reached by migration 10. Never edit one that has shipped; add the
 * next.
 *
 * Ids, times and other compared text use the "C" collation: byte order, as in SQLite, whatever the
 * database's locale (ISO 8601 times then sort as times, and ILIKE folds ASCII letters only, as SQLite's
 * LIKE does).
 */
export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: PostgresMigration[] = [
  {
    version: 1,
    name: 'tenants, uploads, runs and their queue, revenue ledger',
    sql: `
      CREATE TABLE tenants (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL UNIQUE,
        currency text NOT NULL,
        price_per_point bigint NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );
      CREATE TABLE users (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        name text NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX users_tenant ON users(tenant_id, created_at, id);
      CREATE TABLE api_tokens (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        user_id text COLLATE "C" NOT NULL REFERENCES users(id),
        name text NOT NULL,
        prefix text NOT NULL,
        token_hash text COLLATE "C" NOT NULL UNIQUE,
        created_at text COLLATE "C" NOT NULL,
        last_used_at text COLLATE "C",
        expires_at text COLLATE "C",
        revoked_at text COLLATE "C"
      );
      CREATE INDEX api_tokens_tenant ON api_tokens(tenant_id, created_at, id);

      CREATE TABLE uploads (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        file_name text NOT NULL,
        size_bytes bigint NOT NULL,
        content_type text NOT NULL,
        sha256 text,
        part_size bigint NOT NULL,
        part_count integer NOT NULL,
        status text COLLATE "C" NOT NULL CHECK (status IN ('pending', 'completed')),
        file_id text COLLATE "C",
        created_at text COLLATE "C" NOT NULL,
        expires_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX uploads_pending_expiry ON uploads(expires_at) WHERE status = 'pending';
      CREATE INDEX uploads_tenant_pending ON uploads(tenant_id, expires_at) WHERE status = 'pending';
      CREATE TABLE upload_parts (
        upload_id text COLLATE "C" NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
        part_number integer NOT NULL,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        received_at text COLLATE "C" NOT NULL,
        PRIMARY KEY (upload_id, part_number)
      );
      CREATE TABLE files (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        upload_id text COLLATE "C" NOT NULL UNIQUE,
        file_name text NOT NULL,
        size_bytes bigint NOT NULL,
        sha256 text NOT NULL,
        page_count integer,
        pdf_version text,
        encrypted boolean NOT NULL,
        storage_key text NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );

      -- A run's place in the newest-first list. One sequence for all tenants, not a per-tenant counter:
      -- a counter row would be a lock every run creation of the tenant waits on until its commit.
      CREATE SEQUENCE runs_seq AS bigint;
      CREATE TABLE runs (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        seq bigint NOT NULL DEFAULT nextval('runs_seq'),
        file_id text COLLATE "C" NOT NULL REFERENCES files(id),
        user_id text COLLATE "C" NOT NULL,
        created_by text COLLATE "C" NOT NULL,
        created_by_type text COLLATE "C" NOT NULL,
        target text COLLATE "C" NOT NULL,
        status text COLLATE "C" NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        progress integer NOT NULL,
        total_tasks integer NOT NULL,
        completed_tasks integer NOT NULL,
        failed_tasks integer NOT NULL,
        points_consumed bigint NOT NULL,
        input_file_name text COLLATE "C" NOT NULL,
        output_files jsonb NOT NULL,
        error text,
        attempt integer NOT NULL,
        queue_message_id text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        started_at text COLLATE "C",
        completed_at text COLLATE "C",
        -- the contract's Run as JSON, written with every change (since migration 7 by src/records/run.ts): a
        -- list page reads one text per row (building 20 records per request costs the server about 0.15 ms)
        record text NOT NULL DEFAULT ''
      );
      ALTER SEQUENCE runs_seq OWNED BY runs.seq;
      CREATE UNIQUE INDEX runs_tenant_seq ON runs(tenant_id, seq DESC);
      CREATE INDEX runs_tenant_status ON runs(tenant_id, status, seq DESC);
      CREATE INDEX runs_tenant_target ON runs(tenant_id, target, seq DESC);
      CREATE INDEX runs_tenant_status_target ON runs(tenant_id, status, target, seq DESC);
      -- Exact totals without COUNT(*), kept in the transaction of every status change. Each run counts in
      -- one of 16 stripes (seq mod 16): runs created at once land on different rows and do not wait on
      -- each other's row lock; a total is the sum over the stripes.
      CREATE TABLE run_counts (
        tenant_id text COLLATE "C" NOT NULL,
        status text COLLATE "C" NOT NULL,
        target text COLLATE "C" NOT NULL,
        stripe smallint NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (tenant_id, status, target, stripe)
      );
      -- Where a tenant's runs sit in the shared sequence, for the unfiltered page at offset k: runs per
      -- block of 1,024 sequence numbers (level 1) and per superblock of 65,536 (level 2). A deep page finds
      -- its superblock by summing level 2, its block by summing at most 64 rows of level 1, then walks at
      -- most one block of the index. Creations write to 16 stripes like run_counts; once the sequence has
      -- moved past a (super)block, maintenance folds its stripes into stripe 0.
      CREATE TABLE run_blocks (
        tenant_id text COLLATE "C" NOT NULL,
        level smallint NOT NULL,
        block bigint NOT NULL,
        stripe smallint NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (tenant_id, level, block, stripe)
      );
      CREATE INDEX run_blocks_unfolded ON run_blocks(level, block) WHERE stripe > 0;
      CREATE TABLE run_queue (
        id text COLLATE "C" PRIMARY KEY,
        run_id text COLLATE "C" NOT NULL REFERENCES runs(id),
        tenant_id text COLLATE "C" NOT NULL,
        attempt integer NOT NULL,
        enqueued_at text COLLATE "C" NOT NULL,
        lease_owner text COLLATE "C",
        lease_until text COLLATE "C",
        claims integer NOT NULL DEFAULT 0,
        done_at text COLLATE "C"
      );
      CREATE INDEX run_queue_open ON run_queue(enqueued_at) WHERE done_at IS NULL;
      CREATE INDEX run_queue_tenant_open ON run_queue(tenant_id, enqueued_at) WHERE done_at IS NULL;

      CREATE TABLE ledger (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        type text COLLATE "C" NOT NULL CHECK (type IN ('tech', 'ecosystem')),
        amount bigint NOT NULL,
        currency text NOT NULL,
        description text NOT NULL,
        source text COLLATE "C" NOT NULL CHECK (source IN ('run', 'import', 'adjustment')),
        run_id text COLLATE "C",
        queue_message_id text COLLATE "C" UNIQUE,
        external_id text COLLATE "C",
        occurred_at text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL
      );
      CREATE UNIQUE INDEX ledger_external ON ledger(tenant_id, external_id) WHERE external_id IS NOT NULL;
      CREATE INDEX ledger_tenant_time ON ledger(tenant_id, occurred_at DESC, id DESC);
      CREATE INDEX ledger_tenant_type_time ON ledger(tenant_id, type, occurred_at DESC, id DESC);
      CREATE TABLE ledger_daily (
        tenant_id text COLLATE "C" NOT NULL,
        day text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        amount bigint NOT NULL,
        tx_count bigint NOT NULL,
        PRIMARY KEY (tenant_id, day, type)
      );
      CREATE TABLE ledger_totals (
        tenant_id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        amount bigint NOT NULL,
        abs_amount bigint NOT NULL,
        tx_count bigint NOT NULL,
        PRIMARY KEY (tenant_id, type)
      );
      CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'ledger is append-only'; END $$;
      CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON ledger
        FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
    `,
  },
  {
    version: 2,
    name: 'uploads: the blob store multipart id, and a lease shared by processes',
    sql: `
      ALTER TABLE uploads ADD COLUMN multipart_id text COLLATE "C";
      ALTER TABLE uploads ADD COLUMN lease_holder text COLLATE "C";
      ALTER TABLE uploads ADD COLUMN leased_until text COLLATE "C";
    `,
  },
  {
    version: 3,
    name: 'idempotency keys; rate limit buckets shared by processes',
    sql: `
      CREATE TABLE idempotency_keys (
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        key text COLLATE "C" NOT NULL,
        fingerprint text COLLATE "C" NOT NULL,
        lock_token text COLLATE "C" NOT NULL,
        locked_until text COLLATE "C" NOT NULL,
        resource_id text COLLATE "C",
        status integer,
        headers text,
        body text,
        created_at text COLLATE "C" NOT NULL,
        expires_at text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant_id, key)
      );
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
      -- a bucket lost with a crash only refills early: no write-ahead log for the hottest row a tenant has
      CREATE UNLOGGED TABLE rate_buckets (
        key text COLLATE "C" PRIMARY KEY,
        tokens double precision NOT NULL,
        updated_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'events (the outbox of state changes), webhook endpoints, deliveries and their attempts',
    sql: `
      CREATE TABLE events (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text COLLATE "C" NOT NULL UNIQUE,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        type text COLLATE "C" NOT NULL,
        created_at text COLLATE "C" NOT NULL,
        body text NOT NULL
      );
      CREATE INDEX events_tenant ON events(tenant_id, seq);
      CREATE INDEX events_tenant_type ON events(tenant_id, type, seq);
      CREATE INDEX events_tenant_time ON events(tenant_id, created_at);
      CREATE INDEX events_time ON events(created_at);
      CREATE TABLE webhook_endpoints (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        url text NOT NULL,
        events text COLLATE "C",
        description text,
        status text COLLATE "C" NOT NULL,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_until text COLLATE "C",
        failing_since text COLLATE "C",
        created_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints(tenant_id, created_at);
      CREATE TABLE webhook_deliveries (
        endpoint_id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        tenant_id text COLLATE "C" NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at text COLLATE "C" NOT NULL,
        lease_owner text COLLATE "C",
        lease_until text COLLATE "C",
        status text COLLATE "C" NOT NULL,
        PRIMARY KEY (endpoint_id, event_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(tenant_id, next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(lease_until) WHERE lease_until IS NOT NULL;
      CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
      CREATE TABLE webhook_attempts (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        endpoint_id text COLLATE "C" NOT NULL,
        tenant_id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        attempt integer NOT NULL,
        attempted_at text COLLATE "C" NOT NULL,
        status_code integer,
        error text,
        duration_ms integer NOT NULL,
        response_body text NOT NULL
      );
      CREATE INDEX webhook_attempts_endpoint ON webhook_attempts(endpoint_id, seq);
      CREATE INDEX webhook_attempts_time ON webhook_attempts(attempted_at);
    `,
  },
  {
    version: 5,
    name: 'run options',
    sql: `
      -- a run's options (per target, validated by the API) join it
      ALTER TABLE runs ADD COLUMN options jsonb NOT NULL DEFAULT '{}';
      -- a run event's data is the run as GET answered it: events written before options existed gain its
      -- default, the rest of their bytes (signed and sent again by a retry) kept as they were
      UPDATE events SET body = regexp_replace(body, '}\\s*}\\s*$', ', "options" : {}}}')
        WHERE type LIKE 'run.%' AND body::json->'data'->'options' IS NULL;
    `,
  },
  {
    version: 6,
    name: 'events placed in the log after commit, by one publisher at a time; deliveries due per endpoint',
    sql: `
      -- seq is handed out at insert, not at commit; position is handed out after commit, in commit order
      -- (src/store/postgres/events.ts). Events already written keep their order.
      ALTER TABLE events ADD COLUMN position bigint;
      UPDATE events SET position = seq;
      CREATE UNIQUE INDEX events_position ON events(position);
      CREATE INDEX events_unpublished ON events(seq) WHERE position IS NULL;
      DROP INDEX events_tenant;
      DROP INDEX events_tenant_type;
      DROP INDEX events_tenant_time;
      CREATE INDEX events_tenant ON events(tenant_id, position);
      CREATE INDEX events_tenant_type ON events(tenant_id, type, position);
      -- a claim reads each endpoint's soonest due deliveries, skipping endpoints at their limit
      CREATE INDEX webhook_deliveries_endpoint_due ON webhook_deliveries(endpoint_id, next_attempt_at)
        WHERE status = 'pending';
      -- Stamps up to batch committed unpublished events with the next positions, in insert order. The
      -- lock makes publishers take turns: the UPDATE's snapshot, taken after it, sees every earlier
      -- publisher's positions (this function is VOLATILE: each statement takes a new snapshot), and the
      -- lock is released only after this transaction's positions are visible.
      CREATE FUNCTION publish_events(batch integer) RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        published integer;
      BEGIN
        PERFORM pg_advisory_xact_lock(7301554219);
        WITH base AS (SELECT coalesce(max(position), 0) AS p FROM events),
             next AS (
               SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM events
               WHERE position IS NULL ORDER BY seq LIMIT batch)
        UPDATE events e SET position = base.p + next.n FROM next, base WHERE e.seq = next.seq;
        GET DIAGNOSTICS published = ROW_COUNT;
        RETURN published;
      END $$;
    `,
  },
  {
    version: 7,
    name: 'the JSON of runs and transactions written by the service, with the version of the view that wrote it; error codes; every upload with its multipart id',
    sql: `
      -- the Run is built by src/records/run.ts, which writes it on every change; a change of the view rewrites
      -- the stored copies at start (record_view below the view's version), without a migration
      -- (a database from before this change: its trigger built the JSON)
      DROP TRIGGER IF EXISTS runs_record ON runs;
      DROP FUNCTION IF EXISTS runs_record();
      ALTER TABLE runs ADD COLUMN error_code text;
      ALTER TABLE runs ADD COLUMN record_view integer NOT NULL DEFAULT 0;
      ALTER TABLE ledger ADD COLUMN record text NOT NULL DEFAULT '';
      ALTER TABLE ledger ADD COLUMN record_view integer NOT NULL DEFAULT 0;
      -- the version of each view whose copies are all written: a start with nothing to rewrite reads one row
      CREATE TABLE stored_views (name text PRIMARY KEY, version integer NOT NULL);
      ${LEGACY_ERROR_CODES}
      ${LEGACY_MULTIPART_IDS}
      -- a ledger row's facts never change: only its stored JSON is rewritten, by a newer view
      DROP TRIGGER ledger_append_only ON ledger;
      CREATE TRIGGER ledger_append_only BEFORE UPDATE OF ${LEDGER_FACTS} OR DELETE ON ledger
        FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
    `,
  },
  {
    version: 8,
    name: 'the scopes of each API token (null: every scope, as every token issued before)',
    sql: `ALTER TABLE api_tokens ADD COLUMN scopes text;`,
  },
  {
    version: 9,
    name: 'a tenant can be suspended: its tokens are refused and its queued runs wait',
    sql: `ALTER TABLE tenants ADD COLUMN suspended_at text;`,
  },
  {
    version: 10,
    name: "the platform's admin API: admin tokens, the audit trail, and idempotency keys an admin token owns",
    sql: `
      CREATE TABLE admin_tokens (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        prefix text COLLATE "C" NOT NULL,
        token_hash text COLLATE "C" NOT NULL UNIQUE,
        created_at text COLLATE "C" NOT NULL,
        last_used_at text COLLATE "C",
        revoked_at text COLLATE "C"
      );
      CREATE TABLE admin_audit (
        id text COLLATE "C" PRIMARY KEY,
        at text COLLATE "C" NOT NULL,
        actor text COLLATE "C" NOT NULL,
        admin_token_id text COLLATE "C" REFERENCES admin_tokens(id),
        action text COLLATE "C" NOT NULL,
        tenant_id text COLLATE "C" REFERENCES tenants(id),
        target_id text COLLATE "C",
        request_id text COLLATE "C",
        detail text
      );
      CREATE INDEX admin_audit_order ON admin_audit(at, id);
      CREATE INDEX admin_audit_tenant ON admin_audit(tenant_id, at, id);
      ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_tenant_id_fkey;
    `,
  },
  {
    version: 11,
    name: "the time of each tenant's newest ledger entry per type, kept with the totals for the dashboard",
    sql: `
      ALTER TABLE ledger_totals ADD COLUMN latest_at text COLLATE "C";
      UPDATE ledger_totals SET latest_at = (
        SELECT MAX(occurred_at) FROM ledger
        WHERE ledger.tenant_id = ledger_totals.tenant_id AND ledger.type = ledger_totals.type);
    `,
  },
  {
    version: 12,
    name: 'the publisher finds the log head and the unpublished events without walking superseded row versions',
    sql: `
      -- Every event is written unpublished and then stamped, which leaves a superseded version with a NULL
      -- position until vacuum. In a unique index of every position those versions sort last, where
      -- max(position) starts: under a steady write load each publish walked thousands of them (29 ms at
      -- 8,000 events since the last vacuum, and every write waits for a publish). Only placed events are
      -- indexed by position now; every read by position asks for one.
      DROP INDEX events_position;
      CREATE UNIQUE INDEX events_position ON events(position) WHERE position IS NOT NULL;
      -- the unpublished events in insert order, read through the index that holds only them: a bitmap scan
      -- visits every superseded version's heap page again on each publish, an index scan marks them dead
      -- once and steps over them after
      ALTER FUNCTION publish_events(integer) SET enable_bitmapscan = off;
    `,
  },
  {
    version: 13,
    name: "one row of daily sums per tenant and day, both types' sums and counts side by side",
    sql: `
      -- the dashboard reads ~60 days of sums and the transactions page counts ~90: with a row per type they
      -- read twice the rows, and the dashboard summed them per day
      CREATE TABLE ledger_days (
        tenant_id text COLLATE "C" NOT NULL,
        day text COLLATE "C" NOT NULL,
        tech bigint NOT NULL,
        ecosystem bigint NOT NULL,
        tech_count bigint NOT NULL,
        ecosystem_count bigint NOT NULL,
        PRIMARY KEY (tenant_id, day)
      );
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
    version: 14,
    name: "dated API versions: each tenant's pinned version, and the version each webhook endpoint was made at",
    sql: `
      -- tenants and endpoints from before dated versions were built against the contract of 2026-11-29
      ALTER TABLE tenants ADD COLUMN api_version text COLLATE "C" NOT NULL DEFAULT '2026-11-29';
      ALTER TABLE webhook_endpoints ADD COLUMN api_version text COLLATE "C" NOT NULL DEFAULT '2026-11-29';
    `,
  },
  {
    version: 15,
    name: 'the audit trail in commit order: each row its place, for cursors that never skip or repeat a row',
    sql: `
      -- a row's place is taken under a transaction lock held to its commit (src/store/sql/platform.ts), so
      -- places are visible in increasing order; the rows written before keep the order they were listed in
      ALTER TABLE admin_audit ADD COLUMN seq bigint;
      UPDATE admin_audit SET seq = placed.n
        FROM (SELECT id, row_number() OVER (ORDER BY at, id) AS n FROM admin_audit) AS placed
        WHERE admin_audit.id = placed.id;
      ALTER TABLE admin_audit ALTER COLUMN seq SET NOT NULL;
      CREATE UNIQUE INDEX admin_audit_seq ON admin_audit(seq);
      DROP INDEX admin_audit_order;
      DROP INDEX admin_audit_tenant;
      CREATE INDEX admin_audit_tenant ON admin_audit(tenant_id, seq);
      CREATE INDEX admin_audit_action ON admin_audit(action, seq);
    `,
  },
  {
    version: 16,
    name: 'admin tokens with scopes and an expiry, issued over the admin API',
    sql: `
      -- NULL: every scope, as every admin token issued before scopes existed holds
      ALTER TABLE admin_tokens ADD COLUMN scopes text COLLATE "C";
      ALTER TABLE admin_tokens ADD COLUMN expires_at text COLLATE "C";
    `,
  },
  {
    version: 17,
    name: "tenants with the platform's own id and metadata",
    sql: `
      ALTER TABLE tenants ADD COLUMN external_id text COLLATE "C";
      ALTER TABLE tenants ADD COLUMN metadata text NOT NULL DEFAULT '{}';
      CREATE UNIQUE INDEX tenants_external_id ON tenants(external_id) WHERE external_id IS NOT NULL;
    `,
  },
  {
    version: 18,
    name: 'offboarding: a tenant marked for deletion, its exports, and an audit trail that outlives the tenants it names',
    sql: `
      ALTER TABLE tenants ADD COLUMN deletion_requested_at text COLLATE "C";
      ALTER TABLE tenants ADD COLUMN erase_at text COLLATE "C";
      -- set only inside the transaction that erases the tenant: the one time its ledger rows may go
      ALTER TABLE tenants ADD COLUMN erasing_at text COLLATE "C";
      CREATE INDEX tenants_erase_at ON tenants(erase_at) WHERE erase_at IS NOT NULL;
      CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'DELETE' AND EXISTS (
            SELECT 1 FROM tenants WHERE id = OLD.tenant_id AND erasing_at IS NOT NULL) THEN
            RETURN OLD;
          END IF;
          RAISE EXCEPTION 'ledger is append-only';
        END $$;
      CREATE TABLE tenant_exports (
        id text COLLATE "C" PRIMARY KEY,
        tenant_id text COLLATE "C" NOT NULL REFERENCES tenants(id),
        status text COLLATE "C" NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        entries_done bigint NOT NULL DEFAULT 0,
        entries_total bigint,
        size_bytes bigint,
        sha256 text COLLATE "C",
        storage_key text COLLATE "C" NOT NULL,
        error_code text COLLATE "C",
        error_message text,
        lease_owner text COLLATE "C",
        lease_until text COLLATE "C",
        created_at text COLLATE "C" NOT NULL,
        started_at text COLLATE "C",
        completed_at text COLLATE "C"
      );
      CREATE INDEX tenant_exports_tenant ON tenant_exports(tenant_id, created_at);
      CREATE INDEX tenant_exports_open ON tenant_exports(created_at) WHERE status IN ('queued', 'running');
      -- the trail keeps the rows of an erased tenant (without their detail): its tenant_id names no row then
      ALTER TABLE admin_audit DROP CONSTRAINT admin_audit_tenant_id_fkey;
    `,
  },
];
