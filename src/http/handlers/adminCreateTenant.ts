import { issuedTokenView, tenantView } from '../../tenants/admin-views.js';
import { created } from '../handler.js';
import { authed } from '../handler.js';
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
      finalConflicts: ['tenant_name_taken'],
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
      );
      const [tenant, tokens] = await Promise.all([
        services.store.tenants.get(made.tenant_id),
        services.tenants.listTokens(made.tenant_id),
      ]);
      const first = tokens.find((t) => t.token_id === made.token_id)!;
      return created({
        tenant: tenantView(tenant!),
        token: issuedTokenView({ ...first, token: made.token }),
      });
    }),
);
