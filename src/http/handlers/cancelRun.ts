import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const cancelRun: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.runs.cancel(principal.tenantId, pathOf<'cancelRun'>(request).run_id));
};
