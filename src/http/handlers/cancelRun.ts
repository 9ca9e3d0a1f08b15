import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const cancelRun: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.runs.cancel(principal.tenantId, pathOf<'cancelRun'>(c).run_id));
};
