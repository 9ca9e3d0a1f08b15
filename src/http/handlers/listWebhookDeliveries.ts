import type { AuthedHandler } from '../api.js';
import { pathOf, queryOf } from '../params.js';
import { sendOk } from '../render.js';

export const listWebhookDeliveries: AuthedHandler = async ({ c, ctx, services, principal }) => {
  const { limit } = queryOf<'listWebhookDeliveries', 'limit'>(c);
  const id = pathOf<'listWebhookDeliveries'>(c).endpoint_id;
  sendOk(ctx, await services.webhooks.attempts(principal.tenantId, id, limit));
};
