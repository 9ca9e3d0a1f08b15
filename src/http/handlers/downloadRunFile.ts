import { authed, raw } from '../handler.js';

export const downloadRunFile = authed('downloadRunFile', {}, async ({ params, services, principal }) => {
  const output = await services.runs.openOutput(principal.tenantId, params.run_id, params.name);
  return raw((ctx) => {
    ctx.type = output.contentType;
    ctx.body = output.stream;
    ctx.length = output.size;
  });
});
