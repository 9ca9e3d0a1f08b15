import type { HandlerSet } from '../api.js';
import { getHealth } from './getHealth.js';
import { getReadiness } from './getReadiness.js';
import { getRevenueDashboard } from './getRevenueDashboard.js';
import { listRevenueTransactions } from './listRevenueTransactions.js';

/** operationId -> handler; each handler lives in the file named after its operationId. */
export const handlers: HandlerSet = {
  public: { getHealth, getReadiness },
  authed: { getRevenueDashboard, listRevenueTransactions },
};
