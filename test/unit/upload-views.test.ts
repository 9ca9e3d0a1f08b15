import { describe, expect, it } from 'vitest';
import type { PartRow, UploadRow } from '../../src/store/types.js';
import { missingParts, uploadView } from '../../src/uploads/views.js';

const upload: UploadRow = {
  id: 'u1',
  tenant_id: 't1',
  file_name: 'a.pdf',
  size_bytes: 25,
  content_type: 'application/pdf',
  sha256: null,
  part_size: 10,
  part_count: 3,
  status: 'pending',
  file_id: null,
  created_at: '2026-11-26T10:00:00.000Z',
  expires_at: '2026-11-27T10:00:00.000Z',
  multipart_id: 'mp',
};
const part = (n: number): PartRow => ({
  upload_id: 'u1',
  part_number: n,
  size_bytes: 10,
  sha256: 'x',
  received_at: '2026-11-26T10:01:00.000Z',
});

describe('the contract views of an upload', () => {
  it('a pending upload shows its parts and the numbers still missing, and no storage details', () => {
    const view = uploadView(upload, [part(2)], '2026-11-26T12:00:00.000Z');
    expect(view).toMatchObject({ upload_id: 'u1', status: 'pending', missing_parts: [1, 3] });
    expect(view.parts).toEqual([
      { part_number: 2, size_bytes: 10, sha256: 'x', received_at: part(2).received_at },
    ]);
    expect(view).not.toHaveProperty('tenant_id');
    expect(view).not.toHaveProperty('multipart_id');
  });

  it('is expired from its expiry on, and a completed upload never is, nor misses parts', () => {
    expect(uploadView(upload, [], upload.expires_at).status).toBe('expired');
    const completed = { ...upload, status: 'completed' as const, file_id: 'f1' };
    expect(uploadView(completed, [], '2030-01-01T00:00:00.000Z')).toMatchObject({
      status: 'completed',
      missing_parts: [],
    });
    expect(missingParts(upload, [part(1), part(2), part(3)])).toEqual([]);
  });
});
