import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const rotateWebhookSecret: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const id = pathOf<'rotateWebhookSecret'>(request).endpoint_id;
  sendOk(ctx, await services.webhooks.rotateSecret(principal.tenantId, id));
};
