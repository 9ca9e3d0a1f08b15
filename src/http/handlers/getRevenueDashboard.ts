import type { AuthedHandler } from '../state.js';
import { sendOk } from '../render.js';

export const getRevenueDashboard: AuthedHandler = async ({ ctx, services, principal }) => {
  sendOk(ctx, await services.revenue.dashboard(principal.tenantId));
};
