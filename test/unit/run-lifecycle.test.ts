import { describe, expect, it } from 'vitest';
import {
  CANCELLED_MESSAGE,
  cancel,
  create,
  finish,
  progress,
  rerun,
  start,
} from '../../src/runs/lifecycle.js';
import type { RunRow, RunStatus } from '../../src/store/types.js';

const AT = '2026-11-27T10:00:00.000Z';
const LATER = '2026-11-27T10:05:00.000Z';

function runIn(status: RunStatus, fields: Partial<RunRow> = {}): RunRow {
  const ended = status === 'succeeded' || status === 'failed' || status === 'cancelled';
  return {
    id: 'r1',
    tenant_id: 't1',
    file_id: 'f1',
    user_id: 'u1',
    created_by: 'u1',
    created_by_type: 'user',
    target: 'pdf-preflight',
    status,
    progress: ended ? 100 : 40,
    total_tasks: 5,
    completed_tasks: 2,
    failed_tasks: 1,
    points_consumed: ended ? 6 : 0,
    input_file_name: 'a.pdf',
    output_files: ended ? ['report.json'] : [],
    error: status === 'failed' ? 'no' : null,
    error_code: status === 'failed' ? 'invalid_pdf' : null,
    attempt: 1,
    queue_message_id: 'q1',
    created_at: AT,
    started_at: status === 'queued' ? null : AT,
    completed_at: ended ? AT : null,
    options: {},
    ...fields,
  };
}

const ALL: RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const ACTIVE: RunStatus[] = ['queued', 'running'];
const ENDED: RunStatus[] = ['succeeded', 'failed', 'cancelled'];

describe('the run lifecycle', () => {
  it.each(ENDED)('reruns a %s run as a new attempt, reset, under a new queue entry', (status) => {
    const change = rerun(runIn(status), 'q2');
    expect(change).not.toBe('conflict');
    const { run, event } = change as Exclude<typeof change, 'conflict'>;
    expect(event).toBe('run.requeued');
    // what the new attempt starts from, and what it keeps of the run
    const reset: [keyof RunRow, unknown][] = [
      ['status', 'queued'],
      ['progress', 0],
      ['total_tasks', 0],
      ['completed_tasks', 0],
      ['failed_tasks', 0],
      ['points_consumed', 0],
      ['output_files', []],
      ['error', null],
      ['error_code', null],
      ['started_at', null],
      ['completed_at', null],
      ['attempt', 2],
      ['queue_message_id', 'q2'],
    ];
    for (const [field, value] of reset) expect(run[field], field).toEqual(value);
    const kept = Object.keys(run).filter((field) => !reset.some(([name]) => name === field));
    for (const field of kept)
      expect(run[field as keyof RunRow], field).toEqual(runIn(status)[field as keyof RunRow]);
  });

  it('creates a run as its first attempt, queued with nothing done', () => {
    const {
      status,
      attempt,
      progress: done,
      output_files,
      started_at,
    } = create({
      ...runIn('succeeded'),
    });
    expect({ status, attempt, done, output_files, started_at }).toEqual({
      status: 'queued',
      attempt: 1,
      done: 0,
      output_files: [],
      started_at: null,
    });
  });

  it.each(ACTIVE)('refuses to rerun a %s run', (status) => {
    expect(rerun(runIn(status), 'q2')).toBe('conflict');
  });

  it.each(ACTIVE)('cancels a %s run: ended, nothing charged, no outputs', (status) => {
    expect(cancel(runIn(status), LATER)).toEqual({
      run: {
        ...runIn(status),
        status: 'cancelled',
        error: CANCELLED_MESSAGE,
        error_code: 'cancelled',
        points_consumed: 0,
        output_files: [],
        completed_at: LATER,
      },
      event: 'run.cancelled',
    });
  });

  it.each(ENDED)('refuses to cancel a %s run', (status) => {
    expect(cancel(runIn(status), LATER)).toBe('conflict');
  });

  it('starts a queued run once; a run taken over keeps its first start', () => {
    expect(start(runIn('queued'), LATER)).toEqual({
      run: { ...runIn('queued'), status: 'running', started_at: LATER },
      event: 'run.started',
    });
    // a rerun's earlier start is gone (rerun resets it); a start it kept would stay
    expect(start(runIn('queued', { started_at: AT }), LATER)?.run.started_at).toBe(AT);
    for (const status of ALL.filter((s) => s !== 'queued'))
      expect(start(runIn(status), LATER)).toBeUndefined();
  });

  it('records progress that never goes backwards within an attempt, but takes the new task count', () => {
    const before = runIn('running', { progress: 40, completed_tasks: 2, failed_tasks: 1, total_tasks: 5 });
    expect(progress(before, { total_tasks: 6, completed_tasks: 1, failed_tasks: 2, progress: 20 })).toEqual({
      ...before,
      total_tasks: 6,
      completed_tasks: 2,
      failed_tasks: 2,
      progress: 40,
    });
  });

  it.each(['succeeded', 'failed'] as const)('finishes a running run as %s, with its outcome', (status) => {
    const outcome = {
      status,
      total_tasks: 5,
      completed_tasks: status === 'succeeded' ? 5 : 3,
      failed_tasks: status === 'succeeded' ? 0 : 2,
      progress: 100,
      points_consumed: status === 'succeeded' ? 10 : 0,
      output_files: status === 'succeeded' ? ['report.json', 'report.html'] : [],
      error: status === 'succeeded' ? null : 'Opening the file took too long',
      error_code: status === 'succeeded' ? null : ('pdf_too_complex' as const),
      completed_at: LATER,
    };
    const { status: _status, ...fields } = outcome;
    expect(finish(runIn('running'), outcome)).toEqual({
      run: { ...runIn('running'), status, ...fields },
      event: `run.${status}`,
    });
  });
});
