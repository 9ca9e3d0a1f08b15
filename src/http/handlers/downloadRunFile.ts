import type { AuthedHandler } from '../state.js';
import { pathOf } from '../params.js';

export const downloadRunFile: AuthedHandler = async ({ request, ctx, services, principal }) => {
  const { run_id, name } = pathOf<'downloadRunFile'>(request);
  const output = await services.runs.openOutput(principal.tenantId, run_id, name);
  ctx.status = 200;
  ctx.type = output.contentType;
  ctx.body = output.stream;
  ctx.length = output.size;
};
