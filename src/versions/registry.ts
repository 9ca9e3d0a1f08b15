import type { ApiVersion, ContractDocument, VersionChange } from './change.js';
import { eventDataObject } from './changes/2026-12-01-event-data-object.js';

/**
 * Every released version, oldest first. The last is the newest: what handlers speak, what a tenant created
 * today is pinned to. A retired version is still named (its requests get 400 saying so) but not served.
 * Each released version's contract as it was released is kept in `contract/versions/<version>.yaml`, for the
 * breaking-change gate (`npm run check:breaking`).
 */
export interface ReleasedVersion {
  readonly version: ApiVersion;
  /** Retired versions answer 400 `unsupported_version`; kept here so that the answer can say so. */
  readonly retired?: boolean;
}

export const VERSIONS: readonly ReleasedVersion[] = [{ version: '2026-11-29' }, { version: '2026-12-01' }];

/** The changes, newest first; each names the version that introduced it. */
export const VERSION_CHANGES: readonly VersionChange[] = [eventDataObject];

export const NEWEST_VERSION: ApiVersion = VERSIONS[VERSIONS.length - 1]!.version;

/** The versions a request may ask for (not retired), oldest first. */
export const SUPPORTED_VERSIONS: readonly ApiVersion[] = VERSIONS.filter((v) => !v.retired).map(
  (v) => v.version,
);

/** The changes a request at `version` must be taken through: those introduced after it, newest first. */
export function changesSince(version: ApiVersion): readonly VersionChange[] {
  return VERSION_CHANGES.filter((change) => change.version > version);
}

/** The newest contract rewritten down to `version` (a copy; the argument is left as it was). */
export function contractAt(newest: ContractDocument, version: ApiVersion): ContractDocument {
  const document = structuredClone(newest);
  for (const change of changesSince(version)) change.downContract(document);
  // the contract names the version it describes (the typed client sends it)
  if (document.info && typeof document.info === 'object')
    (document.info as { version?: string }).version = version;
  return document;
}

/** The version `text` names when it is a supported one; undefined for anything else (see `versionRefusal`). */
export function supportedVersion(text: string): ApiVersion | undefined {
  return SUPPORTED_VERSIONS.includes(text) ? text : undefined;
}

/** Why `text` is no version a request may ask for: the 400's message names the supported ones. */
export function versionRefusal(text: string): string {
  const supported = SUPPORTED_VERSIONS.join(', ');
  const why = !/^\d{4}-\d{2}-\d{2}$/.test(text)
    ? 'is not a YYYY-MM-DD date'
    : VERSIONS.some((v) => v.version === text)
      ? 'is retired'
      : text > NEWEST_VERSION
        ? 'is later than the newest version'
        : 'is not a released version';
  return `API version ${JSON.stringify(text.slice(0, 40))} ${why}: the supported versions are ${supported} (newest ${NEWEST_VERSION})`;
}

/** The changes since `version` that touch `operation` (an operationId, or `webhook`), newest first. */
export function changesOf(version: ApiVersion, operation: string): readonly VersionChange[] {
  if (version === NEWEST_VERSION) return NONE;
  return changesSince(version).filter((change) => change.operations.includes(operation));
}

const NONE: readonly VersionChange[] = [];
