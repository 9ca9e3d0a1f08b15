/**
 * A record serialized once, in the contract's shape: lists send stored copies as they are, and an event's
 * bytes are the same when listed, streamed and signed.
 */
export type JsonText = string & { readonly __brand: 'JsonText' };

export function jsonText(value: unknown): JsonText {
  return JSON.stringify(value) as JsonText;
}
