import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getWebhookEndpoint: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.webhooks.get(principal.tenantId, pathOf<'getWebhookEndpoint'>(c).endpoint_id));
};
