import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const rerunRun: AuthedHandler = async ({ request, ctx, services, principal }) => {
  sendOk(ctx, await services.runs.rerun(principal.tenantId, pathOf<'rerunRun'>(request).run_id));
};
