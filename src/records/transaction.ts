import type { Schemas } from '../contract/schemas.js';
import { jsonText, type JsonText } from './json-text.js';

export type TransactionType = Schemas['Transaction']['type'];
export type TransactionSource = Schemas['Transaction']['source'];

/** A ledger row: the contract's Transaction, amounts in integer minor units of `currency`. */
export interface LedgerEntry {
  id: string;
  tenant_id: string;
  type: TransactionType;
  amount: number;
  currency: string;
  description: string;
  source: TransactionSource;
  run_id: string | null;
  external_id: string | null;
  occurred_at: string;
  created_at: string;
}

/** The version of `transactionView`; stored copies of an older one are rewritten at start (see RUN_VIEW_VERSION). */
export const TRANSACTION_VIEW_VERSION = 1;

export function transactionView(entry: LedgerEntry): Schemas['Transaction'] {
  return {
    id: entry.id,
    tenant_id: entry.tenant_id,
    type: entry.type,
    amount: entry.amount,
    currency: entry.currency,
    description: entry.description,
    source: entry.source,
    run_id: entry.run_id,
    external_id: entry.external_id,
    occurred_at: entry.occurred_at,
    created_at: entry.created_at,
  };
}

export type TransactionJson = JsonText<Schemas['Transaction']>;

export function transactionJson(entry: LedgerEntry): TransactionJson {
  return jsonText(transactionView(entry));
}
