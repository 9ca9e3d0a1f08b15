import type { Schemas } from '../contract/schemas.js';
import { jsonText, type JsonText } from './json-text.js';

export type RunStatus = Schemas['RunStatus'];
export type RunTarget = Schemas['RunTarget'];
/** A run's options, validated per target by the API; stored with the run and kept by a rerun. */
export type RunOptions = Schemas['RunOptions'];
export type RunErrorCode = NonNullable<Schemas['Run']['error_code']>;

/** A run as stored: the contract's Run field for field, each in a column of its own. */
export interface RunRow {
  id: string;
  tenant_id: string;
  file_id: string;
  user_id: string;
  created_by: string;
  created_by_type: 'user';
  target: RunTarget;
  status: RunStatus;
  progress: number;
  total_tasks: number;
  completed_tasks: number;
  failed_tasks: number;
  points_consumed: number;
  input_file_name: string;
  output_files: string[];
  error: string | null;
  error_code: RunErrorCode | null;
  attempt: number;
  queue_message_id: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  options: RunOptions;
}

/**
 * The version of `runView`. The store keeps each run's JSON beside its columns for the list (one string per
 * row is much cheaper to read than its columns: bench/README.md, "Figures behind the code") and the version
 * it was written by; at start it rewrites the
 * copies an older version wrote. A change of `runView` raises this: no migration.
 */
export const RUN_VIEW_VERSION = 2;

/** The contract's Run. `id` first: a stored copy's id is read from its start (see `idOfRunJson`). */
export function runView(run: RunRow): Schemas['Run'] {
  return {
    id: run.id,
    tenant_id: run.tenant_id,
    file_id: run.file_id,
    user_id: run.user_id,
    created_by: run.created_by,
    created_by_type: run.created_by_type,
    target: run.target,
    status: run.status,
    progress: run.progress,
    total_tasks: run.total_tasks,
    completed_tasks: run.completed_tasks,
    failed_tasks: run.failed_tasks,
    points_consumed: run.points_consumed,
    input_file_name: run.input_file_name,
    output_files: run.output_files,
    error: run.error,
    error_code: run.error_code,
    attempt: run.attempt,
    queue_message_id: run.queue_message_id,
    created_at: run.created_at,
    started_at: run.started_at,
    completed_at: run.completed_at,
    options: run.options,
  };
}

export type RunJson = JsonText<Schemas['Run']>;

export function runJson(run: RunRow): RunJson {
  return jsonText(runView(run));
}

/** A run's id from its JSON, which starts with it: a page's cursor without parsing the whole record. */
export function idOfRunJson(record: RunJson): string {
  return /^\{"id":"([^"]+)"/.exec(record)?.[1] ?? (JSON.parse(record) as { id: string }).id;
}
