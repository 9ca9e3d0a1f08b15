import { authed, ok } from '../handler.js';

export const listWebhookDeliveries = authed(
  'listWebhookDeliveries',
  { defaults: ['limit'] },
  async ({ params, query, services, principal }) =>
    ok(await services.webhooks.attempts(principal.tenantId, params.endpoint_id, query.limit)),
);
