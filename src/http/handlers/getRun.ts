import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const getRun: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.runs.get(principal.tenantId, pathOf<'getRun'>(c).run_id));
};
