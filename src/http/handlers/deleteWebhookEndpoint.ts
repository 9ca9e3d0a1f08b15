import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const deleteWebhookEndpoint: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const id = pathOf<'deleteWebhookEndpoint'>(request).endpoint_id;
  await services.webhooks.delete(principal.tenantId, id);
  sendOk(ctx, { id, deleted: true });
};
