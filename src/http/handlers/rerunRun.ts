import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const rerunRun: AuthedHandler = async ({ c, ctx, services, principal }) => {
  sendOk(ctx, await services.runs.rerun(principal.tenantId, pathOf<'rerunRun'>(c).run_id));
};
