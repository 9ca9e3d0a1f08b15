import { onceOnly } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const rotateWebhookSecret = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    const id = pathOf<'rotateWebhookSecret'>(request).endpoint_id;
    sendOk(ctx, await services.webhooks.rotateSecret(principal.tenantId, id, effect));
  },
  {
    recover: async ({ ctx, services, principal }, endpointId) =>
      sendOk(ctx, await services.webhooks.withSecret(principal.tenantId, endpointId)),
    finalConflicts: [],
  },
);
