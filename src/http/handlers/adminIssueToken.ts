import { ERRORS } from '../../kernel/errors.js';
import { issuedTokenView } from '../../tenants/admin-views.js';
import { adminOrigin } from '../admin-origin.js';
import { authed, created } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminIssueToken = authed(
  'adminIssueToken',
  {
    onceOnly: {
      // the secret is hashed, never kept: a retry gets the same token anew, with a new secret
      answerHoldsSecret: true,
      recover: async (scope, tokenId) =>
        created(issuedTokenView(await scope.services.tenants.replaceLostSecret(tokenId, adminOrigin(scope)))),
      finalConflicts: [],
    },
  },
  async (scope) =>
    answeringAsAdmin(async () => {
      const { params, body, services } = scope;
      const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
      if (expiresAt && expiresAt.getTime() <= services.clock.now().getTime())
        throw ERRORS.expiryNotInFuture();
      const issued = await services.tenants.issueTokenUntil(
        params.tenant_id,
        body.name,
        expiresAt?.toISOString() ?? null,
        body.scopes,
        adminOrigin(scope),
      );
      return created(issuedTokenView(issued));
    }),
);
