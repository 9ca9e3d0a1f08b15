import { onceOnly } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const rerunRun = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    sendOk(ctx, await services.runs.rerun(principal.tenantId, pathOf<'rerunRun'>(request).run_id, effect));
  },
  {
    recover: async ({ ctx, services, principal }, runId) =>
      sendOk(ctx, await services.runs.get(principal.tenantId, runId)),
    // `run_not_finished` passes with time: the run ends, and the same request then reruns it
    finalConflicts: [],
  },
);
