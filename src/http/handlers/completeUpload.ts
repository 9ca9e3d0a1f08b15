import { onceOnly } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const completeUpload = onceOnly(
  async ({ request, ctx, services, principal }) => {
    sendOk(
      ctx,
      await services.uploads.complete(principal.tenantId, bodyOf<'completeUpload'>(request).upload_id),
    );
  },
  {
    needsNoRecord: 'idempotent by itself: executed again, it finds the file it made and answers with it',
    // an expired upload stays expired; missing parts and sizes that do not add up are fixed by sending parts
    finalConflicts: ['upload_expired'],
  },
);
