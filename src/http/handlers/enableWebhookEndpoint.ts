import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const enableWebhookEndpoint: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(
    ctx,
    await services.webhooks.enable(principal.tenantId, pathOf<'enableWebhookEndpoint'>(request).endpoint_id),
  );
};
