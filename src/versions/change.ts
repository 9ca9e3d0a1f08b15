/**
 * A version change: one backwards-incompatible step of the public contract, as Stripe's version-change
 * modules are. Handlers and domain code know only the newest version; a request at an older version is
 * brought up to the newest before validation, and its answer taken back down after the handler, one change
 * at a time (newest first on the way down, oldest first on the way up). The same change rewrites the
 * contract document down (served at `/openapi.yaml?version=`, and judged by the breaking-change gate), so
 * that an old version's contract is derived from the newest one and never drifts from what is served.
 */

/** A released API version: a date, `YYYY-MM-DD`. */
export type ApiVersion = string;

/** The parts of a request a change may rewrite, from its version's shape to the next version's. */
export interface VersionedRequest {
  readonly operationId: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, when there is one. */
  body: unknown;
}

/** An OpenAPI 3.0 document as parsed from YAML (`openapi.yaml`). */
export type ContractDocument = Record<string, unknown>;

export interface VersionChange {
  /** The version that introduces the change: requests at earlier versions get the old shape. */
  readonly version: ApiVersion;
  /** What changed, for the changelog, in a sentence or two. */
  readonly description: string;
  /**
   * The operations whose requests or answers the change touches (operationIds), and `webhook` when it
   * touches what webhook deliveries carry.
   */
  readonly operations: readonly string[];
  /** Old to new: a request at an earlier version, rewritten in place before validation. */
  upRequest?(request: VersionedRequest): void;
  /** New to old: the `data` of a successful answer of one of `operations`, after the handler. */
  downResponse?(data: unknown, operationId: string): unknown;
  /** New to old: one event as the events list, the stream and webhook deliveries carry it. */
  downEvent?(event: Record<string, unknown>): Record<string, unknown>;
  /** New to old: the contract document, rewritten in place (schemas, parameters, descriptions). */
  downContract(document: ContractDocument): void;
}
