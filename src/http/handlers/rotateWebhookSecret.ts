import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const rotateWebhookSecret: AuthedHandler = async ({ c, ctx, services, principal }) => {
  const id = pathOf<'rotateWebhookSecret'>(c).endpoint_id;
  sendOk(ctx, await services.webhooks.rotateSecret(principal.tenantId, id));
};
