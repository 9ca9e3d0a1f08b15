import type { KeyClaim } from './types.js';

/** An idempotency key's row as both engines store it. */
export interface KeyRecord {
  fingerprint: string;
  locked_until: string;
  resource_id: string | null;
  status: number | null;
  headers: string | null;
  body: string | null;
  expires_at: string;
}

export const KEY_COLUMNS = 'fingerprint, locked_until, resource_id, status, headers, body, expires_at';

/**
 * What an unexpired key means to a request that finds it, decided under the row's lock by either engine:
 * another request's key, a stored answer to replay, a holder still alive, or a dead holder's key to take
 * over (`take_over`: the engine gives it the new token and answers `claimed` with its recorded effect).
 */
export function judgeExistingKey(found: KeyRecord, fingerprint: string, now: string): KeyClaim | 'take_over' {
  if (found.fingerprint !== fingerprint) return { outcome: 'mismatch' };
  if (found.status !== null) {
    return {
      outcome: 'replay',
      answer: {
        status: found.status,
        headers: JSON.parse(found.headers ?? '{}') as Record<string, string>,
        body: found.body ?? '',
      },
    };
  }
  if (found.locked_until > now) return { outcome: 'in_use', lockedUntil: found.locked_until };
  return 'take_over';
}
