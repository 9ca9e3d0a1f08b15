import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getRun: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.runs.get(principal.tenantId, pathOf<'getRun'>(request).run_id));
};
