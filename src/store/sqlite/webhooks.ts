import type { DueCandidate, DueCandidates } from '../sql/webhooks.js';

/**
 * One statement per due tenant for its enabled endpoints, then one per endpoint that may take more, each an
 * index walk in due order (SQLite has no LATERAL): an endpoint at its limit is not read at all. Nobody else
 * writes while the claim's transaction is open, so nothing is held by another claimer.
 */
export const sqliteDueCandidates: DueCandidates = async (tx, _text, tenants, now, full, perEndpoint) => {
  const candidates: (DueCandidate & { due: string })[] = [];
  for (const tenant of tenants) {
    const endpoints = await tx.all<{ id: string }>(
      `SELECT id FROM webhook_endpoints WHERE tenant_id = ? AND status = 'enabled'`,
      [tenant],
    );
    for (const { id } of endpoints) {
      if (full.has(id)) continue;
      const due = await tx.all<DueCandidate & { due: string }>(
        `SELECT tenant_id, endpoint_id AS endpoint, event_id AS event, next_attempt_at AS due
         FROM webhook_deliveries INDEXED BY webhook_deliveries_endpoint_due
         WHERE endpoint_id = ? AND status = 'pending' AND next_attempt_at <= ?
           AND (lease_until IS NULL OR lease_until < ?)
         ORDER BY next_attempt_at LIMIT ?`,
        [id, now, now, perEndpoint],
      );
      candidates.push(...due);
    }
  }
  return candidates
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : 0))
    .map(({ due: _, ...candidate }) => candidate);
};
