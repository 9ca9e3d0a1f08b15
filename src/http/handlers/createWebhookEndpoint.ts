import type { AuthedHandler } from '../api.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createWebhookEndpoint: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.webhooks.create(principal.tenantId, bodyOf<'createWebhookEndpoint'>(c)), 201);
};
