import { issuedTokenView, tenantView } from '../../tenants/admin-views.js';
import { authed, created } from '../handler.js';
import { adminOrigin } from '../admin-origin.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminCreateTenant = authed(
  'adminCreateTenant',
  {
    onceOnly: {
      // the first token's secret is hashed, never kept: a retry gets the tenant with a new one
      answerHoldsSecret: true,
      recover: async (scope, tokenId) => {
        const { services } = scope;
        const token = await services.tenants.replaceLostSecret(tokenId, adminOrigin(scope));
        const tenant = await services.store.tenants.get(token.tenant_id);
        return created({ tenant: tenantView(tenant!), token: issuedTokenView(token) });
      },
      finalConflicts: ['tenant_name_taken', 'tenant_external_id_taken'],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () => {
      const { body, services } = scope;
      const made = await services.tenants.create(
        body.name,
        body.currency,
        body.price_per_point,
        adminOrigin(scope),
        body.api_version,
        { external_id: body.external_id, metadata: body.metadata },
      );
      return created({
        tenant: tenantView(made.tenant),
        token: issuedTokenView({ ...made.first, token: made.token }),
      });
    }),
);
