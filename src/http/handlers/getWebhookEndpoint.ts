import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getWebhookEndpoint: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(
    ctx,
    await services.webhooks.get(principal.tenantId, pathOf<'getWebhookEndpoint'>(request).endpoint_id),
  );
};
