import { authed, ok } from '../handler.js';

export const getUpload = authed('getUpload', {}, async ({ params, services, principal }) =>
  ok(await services.uploads.get(principal.tenantId, params.upload_id)),
);
