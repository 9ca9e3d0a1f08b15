import { describe, expect, it } from 'vitest';
import { EVENT_BODY_VERSION, eventJson } from '../../src/records/event.js';
import { jsonText } from '../../src/records/json-text.js';
import { RUN_VIEW_VERSION, type RunRow, runView } from '../../src/records/run.js';
import {
  type LedgerEntry,
  TRANSACTION_VIEW_VERSION,
  transactionView,
} from '../../src/records/transaction.js';
import type { PartRow, UploadRow } from '../../src/store/repos/uploads.js';
import { uploadView } from '../../src/uploads/views.js';

/**
 * `src/records/` is a storage format, not only presentation: the store keeps runs' and transactions' JSON
 * beside their columns (rewritten at start when their view's version rises), and events keep the bodies they
 * were written with for good. Each format's shape (its keys in order, each value's type) is recorded here
 * with the version it belongs to: a shape that changes while its version stays is a stored format changed
 * behind the readers' backs. When a version rises on purpose, record the new shape beside it.
 */
const RECORDED: Record<string, { version: number; shape: string }> = {
  run: {
    version: 2,
    shape:
      '{"id":"string","tenant_id":"string","file_id":"string","user_id":"string","created_by":"string","created_by_type":"string","target":"string","status":"string","progress":"number","total_tasks":"number","completed_tasks":"number","failed_tasks":"number","points_consumed":"number","input_file_name":"string","output_files":["string"],"error":"string","error_code":"string","attempt":"number","queue_message_id":"string","created_at":"string","started_at":"string","completed_at":"string","options":{"min_ppi":"number"}}',
  },
  transaction: {
    version: 1,
    shape:
      '{"id":"string","tenant_id":"string","type":"string","amount":"number","currency":"string","description":"string","source":"string","run_id":"string","external_id":"string","occurred_at":"string","created_at":"string"}',
  },
  event: {
    version: 1,
    // the data of a run's event is the run as it was then: a change of runView is a change of the events too
    shape:
      '{"id":"string","type":"string","created_at":"string","data":{"id":"string","tenant_id":"string","file_id":"string","user_id":"string","created_by":"string","created_by_type":"string","target":"string","status":"string","progress":"number","total_tasks":"number","completed_tasks":"number","failed_tasks":"number","points_consumed":"number","input_file_name":"string","output_files":["string"],"error":"string","error_code":"string","attempt":"number","queue_message_id":"string","created_at":"string","started_at":"string","completed_at":"string","options":{"min_ppi":"number"}}}',
  },
  'upload event data': {
    version: 1,
    shape:
      '{"upload_id":"string","file_name":"string","size_bytes":"number","content_type":"string","sha256":"string","part_size":"number","part_count":"number","file_id":"string","created_at":"string","expires_at":"string","status":"string","parts":[{"part_number":"number","size_bytes":"number","sha256":"string","received_at":"string"}],"missing_parts":[]}',
  },
};

/** The keys of `value` in order and each value's type: what a reader of the stored bytes depends on. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]));
  return value === null ? 'null' : typeof value;
}

const AT = '2026-11-27T00:00:00.000Z';
// every field set, none null: the shape shows each value's type
const run: RunRow = {
  id: 'r',
  tenant_id: 't',
  file_id: 'f',
  user_id: 'u',
  created_by: 'u',
  created_by_type: 'user',
  target: 'pdf-print',
  status: 'failed',
  progress: 1,
  total_tasks: 2,
  completed_tasks: 1,
  failed_tasks: 1,
  points_consumed: 2,
  input_file_name: 'a.pdf',
  output_files: ['report.json'],
  error: 'e',
  error_code: 'run_timeout',
  attempt: 1,
  queue_message_id: 'q',
  created_at: AT,
  started_at: AT,
  completed_at: AT,
  options: { min_ppi: 300 },
};
const entry: LedgerEntry = {
  id: 'l',
  tenant_id: 't',
  type: 'tech',
  amount: 100,
  currency: 'EUR',
  description: 'd',
  source: 'import',
  run_id: 'r',
  external_id: 'x',
  occurred_at: AT,
  created_at: AT,
};
const upload: UploadRow = {
  id: 'up',
  tenant_id: 't',
  file_name: 'a.pdf',
  size_bytes: 10,
  content_type: 'application/pdf',
  sha256: 's',
  part_size: 10,
  part_count: 1,
  status: 'completed',
  file_id: 'f',
  created_at: AT,
  expires_at: AT,
  multipart_id: 'm',
};
const part: PartRow = { upload_id: 'up', part_number: 1, size_bytes: 10, sha256: 's', received_at: AT };

const current: Record<string, { version: number; value: unknown }> = {
  run: { version: RUN_VIEW_VERSION, value: runView(run) },
  transaction: { version: TRANSACTION_VIEW_VERSION, value: transactionView(entry) },
  event: {
    version: EVENT_BODY_VERSION,
    value: JSON.parse(eventJson('e', 'run.created', AT, jsonText(runView(run)))),
  },
  'upload event data': { version: EVENT_BODY_VERSION, value: uploadView(upload, [part], AT) },
};

describe('persisted formats change only with their version', () => {
  it.each(Object.keys(RECORDED))('%s', (name) => {
    const { version, value } = current[name]!;
    const recorded = RECORDED[name]!;
    const shape = JSON.stringify(shapeOf(value));
    if (version === recorded.version)
      expect(shape, `${name}'s stored shape changed: raise its version (and record the new shape here)`).toBe(
        recorded.shape,
      );
    else
      expect.fail(
        `${name} is at version ${version}, recorded at ${recorded.version}: record its shape ${shape} beside the new version`,
      );
  });

  it('notices a key added, one moved, and a type changed', () => {
    const base = JSON.stringify(shapeOf({ id: 'a', n: 1 }));
    expect(JSON.stringify(shapeOf({ id: 'a', n: 1, extra: true }))).not.toBe(base);
    expect(JSON.stringify(shapeOf({ n: 1, id: 'a' }))).not.toBe(base);
    expect(JSON.stringify(shapeOf({ id: 'a', n: '1' }))).not.toBe(base);
  });
});
