import { ERRORS } from '../../kernel/errors.js';
import { withIdleTimeout } from '../body-idle.js';
import { bodyWhenRead } from '../continue.js';
import { authed, ok } from '../handler.js';
import { mediaType } from '../request-body.js';

const PART_MEDIA_TYPES = ['application/octet-stream', 'application/pdf'];

export const uploadPart = authed('uploadPart', {}, async ({ params, ctx, services, principal }) => {
  if (!PART_MEDIA_TYPES.includes(mediaType(ctx))) throw ERRORS.unsupportedMediaType(PART_MEDIA_TYPES);
  return ok(
    await services.uploads.putPart(
      principal.tenantId,
      params.upload_id,
      Number(params.part_number),
      bodyWhenRead(ctx, () => withIdleTimeout(ctx.req, services.config.bodyIdleTimeoutMs)),
      ctx.request.length,
    ),
  );
});
