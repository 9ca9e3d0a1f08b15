import { authed, ok } from '../handler.js';

export const abortUpload = authed('abortUpload', {}, async ({ params, services, principal }) =>
  ok(await services.uploads.abort(principal.tenantId, params.upload_id)),
);
