import { onceOnly } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createWebhookEndpoint = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    sendOk(
      ctx,
      await services.webhooks.create(principal.tenantId, bodyOf<'createWebhookEndpoint'>(request), effect),
      201,
    );
  },
  {
    // the secret is the endpoint's: the answer that showed it once is shown again to the same key only
    recover: async ({ ctx, services, principal }, endpointId) =>
      sendOk(ctx, await services.webhooks.withSecret(principal.tenantId, endpointId), 201),
    // `too_many_webhook_endpoints` passes once the tenant deletes one
    finalConflicts: [],
  },
);
