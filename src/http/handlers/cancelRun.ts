import { runView } from '../../records/run.js';
import { authed, ok } from '../handler.js';

export const cancelRun = authed(
  'cancelRun',
  {
    onceOnly: {
      recover: async ({ services, principal }, runId) =>
        ok(runView(await services.runs.get(principal.tenantId, runId))),
      // the attempt the request meant to cancel had ended: a later attempt is another request's to cancel
      finalConflicts: ['run_finished'],
    },
  },
  async ({ params, services, principal, effect }) =>
    ok(runView(await services.runs.cancel(principal.tenantId, params.run_id, effect))),
);
