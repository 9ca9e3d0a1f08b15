import type { AuthedHandler } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createWebhookEndpoint: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(
    ctx,
    await services.webhooks.create(principal.tenantId, bodyOf<'createWebhookEndpoint'>(request)),
    201,
  );
};
