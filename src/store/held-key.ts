/**
 * The idempotency key a request holds while it runs. The service that makes the request's effect (a run or
 * an upload created, a run requeued or cancelled, a webhook endpoint created, rotated or enabled) opens its
 * unit of work with it (`Store.transaction`) and records the effect there (`recordEffect`): on the key's row,
 * inside the effect's own transaction, so that a process killed between the effect and its stored answer
 * cannot let a retry make a second effect: the retry finds the effect's resource on the key and answers
 * from it.
 */
export interface HeldKey {
  tenantId: string;
  key: string;
  /** Fences a holder that lost the key (its lock expired and a retry took it over): its effect rolls back. */
  token: string;
}

/** The key was taken over by a retry while this request ran: its effect was not committed. */
export class HeldKeyLostError extends Error {
  constructor() {
    super('the idempotency key was taken over by a retry while this request ran');
    this.name = 'HeldKeyLostError';
  }
}
