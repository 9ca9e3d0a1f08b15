import { runView } from '../../records/run.js';
import { authed, created } from '../handler.js';

export const createRun = authed(
  'createRun',
  {
    onceOnly: {
      recover: async ({ services, principal }, runId) =>
        created(runView(await services.runs.get(principal.tenantId, runId))),
      finalConflicts: [],
    },
  },
  async ({ body, services, principal, effect }) =>
    created(runView(await services.runs.create(principal, body.file_id, body.target, body.options, effect))),
);
