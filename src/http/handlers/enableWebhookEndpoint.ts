import { authed, ok } from '../handler.js';

export const enableWebhookEndpoint = authed(
  'enableWebhookEndpoint',
  {
    onceOnly: {
      recover: async ({ services, principal }, endpointId) =>
        ok(await services.webhooks.get(principal.tenantId, endpointId)),
      finalConflicts: [],
    },
  },
  async ({ params, services, principal, effect }) =>
    ok(await services.webhooks.enable(principal.tenantId, params.endpoint_id, effect)),
);
