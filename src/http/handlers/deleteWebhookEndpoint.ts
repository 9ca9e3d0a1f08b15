import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const deleteWebhookEndpoint: AuthedHandler = async ({ c, ctx, services, principal }) => {
  const id = pathOf<'deleteWebhookEndpoint'>(c).endpoint_id;
  await services.webhooks.delete(principal.tenantId, id);
  sendOk(ctx, { id, deleted: true });
};
