import type { TenantRepo, TokenLookup } from '../types.js';
import type { TokensChanged } from '../sql/platform.js';
import type { Postgres } from './database.js';
import { ChannelListener } from './listener.js';

const TOKENS_CHANGED = 'tokens_changed';
/** A token found is kept this long at most, and only while revocations can be heard (see below). */
const TOKEN_CACHE_MS = 5_000;
const TOKEN_CACHE_ENTRIES = 10_000;

/**
 * Every API request looks up its token. Found tokens are cached per process so that a request costs one
 * round trip to PostgreSQL instead of two, but only while this process hears `tokens_changed` on a LISTEN
 * connection: a revocation in any process empties every cache at once, and a lost connection turns the
 * cache off until it is back. Unknown tokens are never cached.
 */
export function withTokenCache(
  tenants: TenantRepo,
  db: Postgres,
): TenantRepo & { close(): void; tokensChanged: TokensChanged } {
  const cache = new Map<string, { found: TokenLookup; until: number }>();
  const changes = new ChannelListener(TOKENS_CHANGED, () => db.listener());
  let unsubscribe: (() => void) | undefined;
  const cached = (tokenHash: string): TokenLookup | undefined => {
    unsubscribe ??= changes.subscribe(() => cache.clear());
    const hit = cache.get(tokenHash);
    if (!hit || !changes.connected) return undefined;
    if (hit.until < Date.now()) {
      cache.delete(tokenHash);
      return undefined;
    }
    return hit.found;
  };
  const remember = (tokenHash: string, found: TokenLookup) => {
    if (!changes.connected) return;
    if (cache.size >= TOKEN_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(tokenHash, { found, until: Date.now() + TOKEN_CACHE_MS });
  };
  return {
    ...tenants,
    /**
     * A platform change's part (sql/platform.ts): the notification goes out with its transaction's commit,
     * and this process forgets at once when it has committed.
     */
    async tokensChanged(tx, what) {
      await tx.run(`SELECT pg_notify('${TOKENS_CHANGED}', ?)`, [what]);
      tx.afterCommit(() => cache.clear());
    },
    close() {
      unsubscribe?.();
      changes.close();
    },
    async lookupToken(tokenHash) {
      const hit = cached(tokenHash);
      if (hit) return { ...hit };
      const row = await tenants.lookupToken(tokenHash);
      if (row) remember(tokenHash, { ...row });
      return row;
    },
    async touchToken(tokenId, at) {
      await tenants.touchToken(tokenId, at);
      for (const { found } of cache.values()) if (found.tokenId === tokenId) found.lastUsedAt = at;
    },
  };
}
