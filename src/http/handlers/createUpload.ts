import { onceOnly } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createUpload = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    sendOk(
      ctx,
      await services.uploads.start(principal.tenantId, bodyOf<'createUpload'>(request), effect),
      201,
    );
  },
  {
    recover: async ({ ctx, services, principal }, uploadId) =>
      sendOk(ctx, await services.uploads.get(principal.tenantId, uploadId), 201),
    finalConflicts: [],
  },
);
