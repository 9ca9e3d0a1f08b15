import { jsonText } from '../../records/json-text.js';
import { authed, list } from '../handler.js';

export const adminListAdminTokens = authed('adminListAdminTokens', {}, async ({ services }) =>
  list((await services.adminTokens.list()).map(jsonText), {}),
);
