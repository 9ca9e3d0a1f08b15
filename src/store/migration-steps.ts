/** Steps both engines' migrations take alike. Shipped: never edit them; add the next. */

/**
 * Gives the runs that ended before error codes were kept (migration 16 on SQLite, 7 on PostgreSQL) the code
 * of the message they ended with.
 */
export const LEGACY_ERROR_CODES = `UPDATE runs SET error_code = CASE
          WHEN status = 'cancelled' THEN 'cancelled'
          WHEN error = 'The uploaded file is missing from storage' THEN 'file_missing'
          WHEN error LIKE 'The PDF is encrypted%' THEN 'encrypted_pdf'
          WHEN error LIKE 'The run took longer than%' THEN 'run_timeout'
          WHEN error LIKE 'The run was interrupted%' THEN 'interrupted'
          WHEN error LIKE 'The run''s revenue would carry%' THEN 'ledger_overflow'
          WHEN error LIKE 'The parser took longer than%' OR error LIKE '%out of memory%' THEN 'pdf_too_complex'
          WHEN error LIKE 'The parser crashed%' OR error LIKE 'The parser exited%' THEN 'parser_crashed'
          ELSE 'invalid_pdf' END
        WHERE status IN ('failed', 'cancelled');`;

/** The ledger's columns that no update may touch (migration 16 on SQLite, 7 on PostgreSQL). */
export const LEDGER_FACTS = `id, tenant_id, type, amount, currency, description, source, run_id, queue_message_id,
  external_id, occurred_at, created_at`;

/**
 * Uploads from before the blob store's multipart ids were kept (migration 16 on SQLite, 7 on PostgreSQL) get
 * the id the local engine gave them then: the folder of their parts.
 */
export const LEGACY_MULTIPART_IDS = `UPDATE uploads SET multipart_id = 'uploads/' || tenant_id || '/' || id
  WHERE multipart_id IS NULL;`;
