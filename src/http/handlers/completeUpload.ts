import { authed, ok } from '../handler.js';

export const completeUpload = authed(
  'completeUpload',
  {
    onceOnly: {
      needsNoRecord: 'idempotent by itself: executed again, it finds the file it made and answers with it',
      // an expired upload stays expired; missing parts and sizes that do not add up are fixed by sending parts
      finalConflicts: ['upload_expired'],
    },
  },
  async ({ body, services, principal }) =>
    ok(await services.uploads.complete(principal.tenantId, body.upload_id)),
);
