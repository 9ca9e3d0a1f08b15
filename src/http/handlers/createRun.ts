import { onceOnly } from '../state.js';
import { bodyOf } from '../params.js';
import { sendOk } from '../render.js';

export const createRun = onceOnly(
  async ({ request, ctx, services, principal, effect }) => {
    const body = bodyOf<'createRun'>(request);
    sendOk(ctx, await services.runs.create(principal, body.file_id, body.target, body.options, effect), 201);
  },
  {
    recover: async ({ ctx, services, principal }, runId) =>
      sendOk(ctx, await services.runs.get(principal.tenantId, runId), 201),
    finalConflicts: [],
  },
);
