import { onceOnly } from '../state.js';
import { pathOf } from '../params.js';
import { sendOk } from '../render.js';

export const cancelRun = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    sendOk(ctx, await services.runs.cancel(principal.tenantId, pathOf<'cancelRun'>(request).run_id, effect));
  },
  {
    recover: async ({ ctx, services, principal }, runId) =>
      sendOk(ctx, await services.runs.get(principal.tenantId, runId)),
    // the attempt the request meant to cancel had ended: a later attempt is another request's to cancel
    finalConflicts: ['run_finished'],
  },
);
