import { authed, ok } from '../handler.js';

export const getFile = authed('getFile', {}, async ({ params, services, principal }) =>
  ok(await services.uploads.getFile(principal.tenantId, params.file_id)),
);
