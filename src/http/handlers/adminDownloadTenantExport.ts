import { authed, raw } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminDownloadTenantExport = authed(
  'adminDownloadTenantExport',
  {},
  async ({ params, services }) =>
    answeringAsAdmin(async () => {
      const archive = await services.exports.openArchive(params.tenant_id, params.export_id);
      return raw((ctx) => {
        ctx.type = 'application/x-tar';
        ctx.set('ETag', `"${archive.sha256}"`);
        ctx.set('Repr-Digest', `sha-256=:${Buffer.from(archive.sha256, 'hex').toString('base64')}:`);
        ctx.body = archive.stream;
        ctx.length = archive.size;
      });
    }),
);
