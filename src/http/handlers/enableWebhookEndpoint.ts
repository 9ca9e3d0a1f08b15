import { onceOnly } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const enableWebhookEndpoint = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    const id = pathOf<'enableWebhookEndpoint'>(request).endpoint_id;
    sendOk(ctx, await services.webhooks.enable(principal.tenantId, id, effect));
  },
  {
    recover: async ({ ctx, services, principal }, endpointId) =>
      sendOk(ctx, await services.webhooks.get(principal.tenantId, endpointId)),
    finalConflicts: [],
  },
);
