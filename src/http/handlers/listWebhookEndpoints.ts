import type { AuthedHandler } from '../state.js';
import { sendOk } from '../render.js';

export const listWebhookEndpoints: AuthedHandler = async ({ ctx, services, principal }) => {
  sendOk(ctx, await services.webhooks.list(principal.tenantId));
};
