import { runView } from '../../records/run.js';
import { authed, ok } from '../handler.js';

export const getRun = authed('getRun', {}, async ({ params, services, principal }) =>
  ok(runView(await services.runs.get(principal.tenantId, params.run_id))),
);
