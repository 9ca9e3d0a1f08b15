import { authed, created } from '../handler.js';

export const createUpload = authed(
  'createUpload',
  {
    onceOnly: {
      recover: async ({ services, principal }, uploadId) =>
        created(await services.uploads.get(principal.tenantId, uploadId)),
      finalConflicts: [],
    },
  },
  async ({ body, services, principal, effect }) =>
    created(await services.uploads.start(principal.tenantId, body, effect)),
);
