import { authed, created } from '../handler.js';

export const createWebhookEndpoint = authed(
  'createWebhookEndpoint',
  {
    onceOnly: {
      // the secret is the endpoint's: the answer that showed it once is shown again to the same key only
      recover: async ({ services, principal }, endpointId) =>
        created(await services.webhooks.withSecret(principal.tenantId, endpointId)),
      // `too_many_webhook_endpoints` passes once the tenant deletes one
      finalConflicts: [],
    },
  },
  // the endpoint keeps the version it was made at: its deliveries are rendered at it
  async ({ body, services, principal, effect, version }) =>
    created(await services.webhooks.create(principal.tenantId, body, version, effect)),
);
