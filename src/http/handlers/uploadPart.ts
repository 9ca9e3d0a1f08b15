import { ERRORS } from '../../errors.js';
import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';
import { withIdleTimeout } from '../body-idle.js';
import { mediaType } from '../request-body.js';
import { bodyWhenRead } from '../continue.js';

const PART_MEDIA_TYPES = ['application/octet-stream', 'application/pdf'];

export const uploadPart: AuthedHandler = async ({ request, ctx, services, principal }) => {
  if (!PART_MEDIA_TYPES.includes(mediaType(ctx))) throw ERRORS.unsupportedMediaType(PART_MEDIA_TYPES);
  const { upload_id, part_number } = pathOf<'uploadPart'>(request);
  const result = await services.uploads.putPart(
    principal.tenantId,
    upload_id,
    Number(part_number),
    bodyWhenRead(ctx, () => withIdleTimeout(ctx.req, services.config.bodyIdleTimeoutMs)),
    ctx.request.length,
  );
  sendOk(ctx, result);
};
