import type { DueCandidate, DueCandidates } from '../sql/webhooks.js';

/**
 * Every due tenant's enabled endpoints that may take more, each walked in due order on its index, in one
 * statement; rows another dispatcher's claim holds are skipped, not waited for.
 */
export const postgresDueCandidates: DueCandidates = (tx, text, tenants, now, full, perEndpoint) =>
  tx.all<DueCandidate>(
    `SELECT e.tenant_id, x.endpoint_id AS endpoint, x.event_id AS event FROM webhook_endpoints e
     CROSS JOIN LATERAL (
       SELECT d.endpoint_id, d.event_id, d.next_attempt_at FROM webhook_deliveries d
       WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ?
         AND (d.lease_until IS NULL OR d.lease_until < ?)
       ORDER BY d.next_attempt_at LIMIT ?
       FOR UPDATE OF d SKIP LOCKED) x
     WHERE e.tenant_id IN ${text.jsonTexts('?')} AND e.status = 'enabled' AND e.id NOT IN ${text.jsonTexts('?')}
     ORDER BY x.next_attempt_at`,
    [now, now, perEndpoint, JSON.stringify(tenants), JSON.stringify([...full])],
  );
