import { authed, ok } from '../handler.js';

export const listWebhookEndpoints = authed('listWebhookEndpoints', {}, async ({ services, principal }) =>
  ok(await services.webhooks.list(principal.tenantId)),
);
