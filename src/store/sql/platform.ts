import type { HeldKey } from '../held-key.js';
import type {
  AdminTokenRow,
  AuditRow,
  LedgerEntry,
  PlatformRepo,
  PlatformUnit,
  TenantChanges,
  TenantExportRow,
  TenantRow,
  TokenRow,
  UsageDays,
  UsageFigures,
} from '../types.js';
import { type SqlDialect, type SqlValue, TEXT } from './dialect.js';
import { AUDIT, insertAudit } from './audit.js';
import { recordEffect } from './idempotency.js';
import { EXPORT, insertExport } from './offboarding.js';
import { entriesByExternalId, entryById, writeLedgerEntries } from './ledger.js';
import { insertTenant, insertToken, TENANT, TOKEN } from './tenants.js';
import type { Transact, WorkSession } from './unit-of-work.js';

const ADMIN_TOKEN = 'id, name, prefix, scopes, created_at, last_used_at, expires_at, revoked_at';

/**
 * What the engine does in a change's transaction when the change alters what a token lookup finds (a
 * revocation, a suspension): PostgreSQL notifies every process's token cache, on commit only.
 */
export type TokensChanged = (tx: WorkSession, what: string) => Promise<void>;

function tenantChanges(sql: SqlDialect, tx: WorkSession, tokensChanged: TokensChanged): TenantChanges {
  const tenant = (id: string) => tx.get<TenantRow>(`SELECT ${TENANT} FROM tenants WHERE id = ?`, [id]);
  return {
    lock: (tenantId) =>
      tx.get<TenantRow>(`SELECT ${TENANT} FROM tenants WHERE id = ?${sql.text.rowLock('wait')}`, [tenantId]),
    create: (row, user, token, tokenHash) => insertTenant(tx, row, user, token, tokenHash),
    async update(tenantId, changes) {
      if (changes.name !== undefined)
        await tx.run('UPDATE tenants SET name = ? WHERE id = ?', [changes.name, tenantId]);
      if (changes.price_per_point !== undefined)
        await tx.run('UPDATE tenants SET price_per_point = ? WHERE id = ?', [
          changes.price_per_point,
          tenantId,
        ]);
      if (changes.external_id !== undefined)
        await tx.run('UPDATE tenants SET external_id = ? WHERE id = ?', [changes.external_id, tenantId]);
      if (changes.metadata !== undefined)
        await tx.run('UPDATE tenants SET metadata = ? WHERE id = ?', [changes.metadata, tenantId]);
      if (changes.api_version !== undefined) {
        const changed = await tx.run('UPDATE tenants SET api_version = ? WHERE id = ?', [
          changes.api_version,
          tenantId,
        ]);
        // a token lookup carries the pin: PostgreSQL's token caches forget theirs
        if (changed > 0) await tokensChanged(tx, tenantId);
      }
      return tenant(tenantId);
    },
    async markForDeletion(tenantId, at, eraseAt) {
      const changed = await tx.run(
        `UPDATE tenants SET suspended_at = COALESCE(suspended_at, ?), deletion_requested_at = ?, erase_at = ?
         WHERE id = ? AND erase_at IS NULL`,
        [at, at, eraseAt, tenantId],
      );
      if (changed > 0) await tokensChanged(tx, tenantId);
      return tenant(tenantId);
    },
    async unmarkDeletion(tenantId, now) {
      const changed = await tx.run(
        'UPDATE tenants SET deletion_requested_at = NULL, erase_at = NULL WHERE id = ? AND erase_at > ?',
        [tenantId, now],
      );
      return changed > 0;
    },
    async setSuspended(tenantId, at) {
      const changed = await tx.run('UPDATE tenants SET suspended_at = ? WHERE id = ?', [at, tenantId]);
      if (changed > 0) await tokensChanged(tx, tenantId);
      return tenant(tenantId);
    },
    async issueToken(token, tokenHash) {
      await insertToken(tx, token, tokenHash);
    },
    async revokeToken(tenantId, tokenId, at) {
      const changed = await tx.run(
        'UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL',
        [at, tokenId, tenantId],
      );
      if (changed > 0) await tokensChanged(tx, tokenId);
      const token = await tx.get<TokenRow>(`SELECT ${TOKEN} FROM api_tokens WHERE id = ? AND tenant_id = ?`, [
        tokenId,
        tenantId,
      ]);
      return token && { token, revoked: changed > 0 };
    },
  };
}

/** The external ids of `entries`, per tenant. */
function byTenant(entries: readonly LedgerEntry[]): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const entry of entries)
    if (entry.external_id !== null)
      ids.set(entry.tenant_id, [...(ids.get(entry.tenant_id) ?? []), entry.external_id]);
  return ids;
}

export function sqlPlatform(sql: SqlDialect, transact: Transact, tokensChanged: TokensChanged): PlatformRepo {
  return {
    change<T>(work: (tx: PlatformUnit) => Promise<T>, heldKey?: HeldKey) {
      return transact((tx) =>
        work({
          tenants: tenantChanges(sql, tx, tokensChanged),
          audit: async (row) => void (await insertAudit(sql, tx, row)),
          async issueAdminToken(row, tokenHash) {
            await tx.run(
              `INSERT INTO admin_tokens (id, name, prefix, token_hash, scopes, created_at, last_used_at,
                 expires_at, revoked_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
              [
                row.id,
                row.name,
                row.prefix,
                tokenHash,
                row.scopes,
                row.created_at,
                row.last_used_at,
                row.expires_at,
                row.revoked_at,
              ],
            );
          },
          async revokeAdminToken(tokenId, at) {
            const changed = await tx.run(
              'UPDATE admin_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
              [at, tokenId],
            );
            const token = await tx.get<AdminTokenRow>(
              `SELECT ${ADMIN_TOKEN} FROM admin_tokens WHERE id = ?`,
              [tokenId],
            );
            return token && { token, revoked: changed > 0 };
          },
          async appendLedger(entries) {
            const booked = new Set((await writeLedgerEntries(tx, entries)).map((entry) => entry.id));
            // what the ledger had already, for the entries it skipped (committed before: a concurrent
            // insert of the same external_id is waited for by the unique index)
            const skipped = entries.filter((entry) => !booked.has(entry.id));
            const before = new Map<string, LedgerEntry>();
            for (const [tenantId, ids] of byTenant(skipped))
              for (const entry of await entriesByExternalId(tx, tenantId, ids))
                before.set(`${tenantId}\u0000${entry.external_id}`, entry);
            return entries.map((entry) =>
              booked.has(entry.id)
                ? { entry, booked: entry }
                : { entry, booked: before.get(`${entry.tenant_id}\u0000${entry.external_id}`)! },
            );
          },
          findLedgerEntry: (tenantId, id) => entryById(tx, tenantId, id),
          async createExport(row) {
            await insertExport(tx, row);
          },
          openExport: (tenantId) =>
            tx.get<TenantExportRow>(
              `SELECT ${EXPORT} FROM tenant_exports WHERE tenant_id = ? AND status IN ('queued', 'running')`,
              [tenantId],
            ),
          recordEffect: (resourceId) => recordEffect(tx, heldKey, resourceId),
          afterCommit: (hook) => tx.afterCommit(hook),
        }),
      );
    },
    listAdminTokens() {
      return sql.all<AdminTokenRow>(`SELECT ${ADMIN_TOKEN} FROM admin_tokens ORDER BY created_at, id`);
    },
    lookupAdminToken(tokenHash) {
      return sql.get<AdminTokenRow>(`SELECT ${ADMIN_TOKEN} FROM admin_tokens WHERE token_hash = ?`, [
        tokenHash,
      ]);
    },
    async touchAdminToken(tokenId, at) {
      await sql.run('UPDATE admin_tokens SET last_used_at = ? WHERE id = ?', [at, tokenId]);
    },
    async listAudit(filter, { order, limit, offset, startingAfter }) {
      const conditions: string[] = [];
      const values: SqlValue[] = [];
      const where = (condition: string, value: SqlValue) => {
        conditions.push(condition);
        values.push(value);
      };
      if (filter.tenantId !== undefined) where(`tenant_id = ${TEXT}`, filter.tenantId);
      if (filter.action !== undefined) where(`action = ${TEXT}`, filter.action);
      if (filter.since !== undefined) where(`at >= ${TEXT}`, filter.since);
      if (filter.until !== undefined) where(`at < ${TEXT}`, filter.until);
      const filtered = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const [total] = await sql.column<number>(`SELECT COUNT(*) FROM admin_audit ${filtered}`, values);
      const paged = [...conditions];
      const pagedValues = [...values];
      if (startingAfter !== undefined) {
        const [after] = await sql.column<number>(`SELECT seq FROM admin_audit WHERE id = ${TEXT}`, [
          startingAfter,
        ]);
        if (after === undefined) return undefined;
        paged.push(`seq ${order === 'asc' ? '>' : '<'} ?`);
        pagedValues.push(after);
      }
      // one row past the page says whether more follow
      const rows = await sql.all<AuditRow>(
        `SELECT ${AUDIT} FROM admin_audit ${paged.length === 0 ? '' : `WHERE ${paged.join(' AND ')}`}
         ORDER BY seq ${order === 'asc' ? 'ASC' : 'DESC'}
         LIMIT ${sql.text.pageBound('?')} OFFSET ${sql.text.pageBound('?')}`,
        [...pagedValues, limit + 1, offset],
      );
      return { items: rows.slice(0, limit), total: Number(total), more: rows.length > limit };
    },
    async usage(tenantId, from, to) {
      const runs = await sql.all<UsageFigures['runs'][number]>(
        `SELECT r.status, r.target, COUNT(*) AS runs, COALESCE(SUM(r.points_consumed), 0) AS points,
           COALESCE(SUM(CASE WHEN r.status = 'succeeded' THEN f.page_count ELSE 0 END), 0) AS pages
         FROM runs r JOIN files f ON f.id = r.file_id
         WHERE r.tenant_id = ? AND r.created_at >= ? AND r.created_at < ?
         GROUP BY r.status, r.target ORDER BY r.target, r.status`,
        [tenantId, from, to],
      );
      const stored = await sql.get<{ files: number; bytes: number }>(
        `SELECT COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes FROM files
         WHERE tenant_id = ? AND created_at < ?`,
        [tenantId, to],
      );
      return {
        runs: runs.map((row) => ({
          ...row,
          runs: Number(row.runs),
          points: Number(row.points),
          pages: Number(row.pages),
        })),
        files: Number(stored?.files ?? 0),
        bytes: Number(stored?.bytes ?? 0),
      };
    },
    async usageByDay(tenantId, from, to) {
      const runs = await sql.all<UsageDays['runs'][number]>(
        `SELECT substr(r.created_at, 1, 10) AS day, COUNT(*) AS runs,
           COALESCE(SUM(r.points_consumed), 0) AS points,
           COALESCE(SUM(CASE WHEN r.status = 'succeeded' THEN f.page_count ELSE 0 END), 0) AS pages
         FROM runs r JOIN files f ON f.id = r.file_id
         WHERE r.tenant_id = ? AND r.created_at >= ? AND r.created_at < ?
         GROUP BY substr(r.created_at, 1, 10) ORDER BY day`,
        [tenantId, from, to],
      );
      const files = await sql.all<UsageDays['files'][number]>(
        `SELECT substr(created_at, 1, 10) AS day, COUNT(*) AS files, COALESCE(SUM(size_bytes), 0) AS bytes
         FROM files WHERE tenant_id = ? AND created_at < ?
         GROUP BY substr(created_at, 1, 10) ORDER BY day`,
        [tenantId, to],
      );
      return {
        runs: runs.map((row) => ({
          day: row.day,
          runs: Number(row.runs),
          points: Number(row.points),
          pages: Number(row.pages),
        })),
        files: files.map((row) => ({ day: row.day, files: Number(row.files), bytes: Number(row.bytes) })),
      };
    },
    async tenantsAfter(limit, startingAfter) {
      let after: SqlValue[] = [];
      let where = '';
      if (startingAfter !== undefined) {
        const cursor = await sql.get<{ created_at: string; id: string }>(
          `SELECT created_at, id FROM tenants WHERE id = ${TEXT}`,
          [startingAfter],
        );
        if (!cursor) return undefined;
        where = `WHERE created_at > ${TEXT} OR (created_at = ${TEXT} AND id > ${TEXT})`;
        after = [cursor.created_at, cursor.created_at, cursor.id];
      }
      return sql.all<TenantRow>(
        `SELECT ${TENANT} FROM tenants ${where} ORDER BY created_at, id LIMIT ${sql.text.pageBound('?')}`,
        [...after, limit],
      );
    },
    async listTenants(limit, offset, filter = {}) {
      const conditions: string[] = [];
      const values: SqlValue[] = [];
      if (filter.state !== undefined)
        conditions.push(filter.state === 'suspended' ? 'suspended_at IS NOT NULL' : 'suspended_at IS NULL');
      if (filter.externalId !== undefined) {
        conditions.push(`external_id = ${TEXT}`);
        values.push(filter.externalId);
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const items = await sql.all<TenantRow>(
        `SELECT ${TENANT} FROM tenants ${where} ORDER BY created_at, id
         LIMIT ${sql.text.pageBound('?')} OFFSET ${sql.text.pageBound('?')}`,
        [...values, limit, offset],
      );
      const [total] = await sql.column<number>(`SELECT COUNT(*) FROM tenants ${where}`, values);
      return { items, total: Number(total) };
    },
    getToken(tokenId) {
      return sql.get<TokenRow>(`SELECT ${TOKEN} FROM api_tokens WHERE id = ?`, [tokenId]);
    },
  };
}
