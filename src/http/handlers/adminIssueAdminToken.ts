import { adminOrigin } from '../admin-origin.js';
import { authed, created } from '../handler.js';
import { answeringAsAdmin } from '../platform-errors.js';

export const adminIssueAdminToken = authed(
  'adminIssueAdminToken',
  {
    onceOnly: {
      // the secret is hashed, never kept: a retry gets the same token anew, with a new secret
      answerHoldsSecret: true,
      recover: async (scope, tokenId) =>
        created(
          await answeringAsAdmin(() =>
            scope.services.adminTokens.replaceLostSecret(tokenId, adminOrigin(scope)),
          ),
        ),
      finalConflicts: [],
    },
  },
  async (scope) => {
    const { body, services, principal } = scope;
    return created(
      await services.adminTokens.issue(
        body.name,
        { scopes: body.scopes, expiresAt: body.expires_at ?? null },
        adminOrigin(scope),
        principal.scopes,
      ),
    );
  },
);
