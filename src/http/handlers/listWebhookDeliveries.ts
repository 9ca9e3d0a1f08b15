import type { AuthedHandler } from '../state.js';
import { pathOf, queryOf } from '../params.js';
import { sendOk } from '../render.js';

export const listWebhookDeliveries: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const { limit } = queryOf<'listWebhookDeliveries', 'limit'>(request);
  const id = pathOf<'listWebhookDeliveries'>(request).endpoint_id;
  sendOk(ctx, await services.webhooks.attempts(principal.tenantId, id, limit));
};
