/**
 * A record serialized once, in the contract's shape (`T`, a schema of openapi.yaml): lists send stored copies
 * as they are, and an event's bytes are the same when listed, streamed and signed. `T` is carried by the type
 * alone, so that a list can only answer with copies of the shape its operation declares.
 */
export type JsonText<T = unknown> = string & { readonly __brand: 'JsonText'; readonly __shape?: T };

export function jsonText<T>(value: T): JsonText<T> {
  return JSON.stringify(value) as JsonText<T>;
}
