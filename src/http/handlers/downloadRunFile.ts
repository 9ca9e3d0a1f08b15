import type { AuthedHandler } from '../api.js';
import { pathOf } from '../params.js';

export const downloadRunFile: AuthedHandler = async ({ c, ctx, services, principal }) => {
  const { run_id, name } = pathOf<'downloadRunFile'>(c);
  const output = await services.runs.openOutput(principal.tenantId, run_id, name);
  ctx.status = 200;
  ctx.type = output.contentType;
  ctx.body = output.stream;
  ctx.length = output.size;
};
