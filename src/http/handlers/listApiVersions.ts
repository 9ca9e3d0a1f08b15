import type { Schemas } from '../../contract/schemas.js';
import { NEWEST_VERSION, VERSION_CHANGES, VERSIONS } from '../../versions/registry.js';
import { authed, ok } from '../handler.js';

type ApiVersion = Schemas['ApiVersion'];

/** Every released version with its changelog, oldest first: the same for every caller. */
const RELEASED: Schemas['ApiVersionInfo'][] = VERSIONS.map(({ version, retired }) => ({
  version: version as ApiVersion,
  status: retired ? 'retired' : version === NEWEST_VERSION ? 'newest' : 'supported',
  changes: VERSION_CHANGES.filter((change) => change.version === version).map((change) => change.description),
}));

export const listApiVersions = authed('listApiVersions', {}, async ({ principal, version }) =>
  ok({
    versions: RELEASED,
    newest: NEWEST_VERSION as ApiVersion,
    pinned: (principal.apiVersion ?? NEWEST_VERSION) as ApiVersion,
    current: version as ApiVersion,
  }),
);
