import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const enableWebhookEndpoint: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(
    ctx,
    await services.webhooks.enable(principal.tenantId, pathOf<'enableWebhookEndpoint'>(c).endpoint_id),
  );
};
