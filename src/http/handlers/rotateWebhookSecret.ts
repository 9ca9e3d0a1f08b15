import { authed, ok } from '../handler.js';

export const rotateWebhookSecret = authed(
  'rotateWebhookSecret',
  {
    onceOnly: {
      recover: async ({ services, principal }, endpointId) =>
        ok(await services.webhooks.withSecret(principal.tenantId, endpointId)),
      finalConflicts: [],
    },
  },
  async ({ params, services, principal, effect }) =>
    ok(await services.webhooks.rotateSecret(principal.tenantId, params.endpoint_id, effect)),
);
