import { authed, ok } from '../handler.js';

export const getWebhookEndpoint = authed('getWebhookEndpoint', {}, async ({ params, services, principal }) =>
  ok(await services.webhooks.get(principal.tenantId, params.endpoint_id)),
);
