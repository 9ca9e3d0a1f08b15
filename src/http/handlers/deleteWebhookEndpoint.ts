import { authed, ok } from '../handler.js';

export const deleteWebhookEndpoint = authed(
  'deleteWebhookEndpoint',
  {},
  async ({ params, services, principal }) => {
    await services.webhooks.delete(principal.tenantId, params.endpoint_id);
    return ok({ id: params.endpoint_id, deleted: true as const });
  },
);
