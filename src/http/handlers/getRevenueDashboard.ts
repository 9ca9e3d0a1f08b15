import { authed, ok } from '../handler.js';

export const getRevenueDashboard = authed('getRevenueDashboard', {}, async ({ services, principal }) =>
  ok(await services.revenue.dashboard(principal.tenantId)),
);
