import { runView } from '../../records/run.js';
import { authed, ok } from '../handler.js';

export const rerunRun = authed(
  'rerunRun',
  {
    onceOnly: {
      recover: async ({ services, principal }, runId) =>
        ok(runView(await services.runs.get(principal.tenantId, runId))),
      // `run_not_finished` passes with time: the run ends, and the same request then reruns it
      finalConflicts: [],
    },
  },
  async ({ params, services, principal, effect }) =>
    ok(runView(await services.runs.rerun(principal.tenantId, params.run_id, effect))),
);
