import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../helpers/engine.js';
import { readPdf, sha256 } from '../helpers/files.js';
import { type ApiResponse, type Harness, startHarness } from '../helpers/harness.js';

/**
 * Each race, this many times; rounds run a few at a time, each on its own upload. The suite runs 25 on
 * local disk and 10 on S3 (where a round costs about 90 ms; CI has 15 minutes); `UPLOAD_RACE_ROUNDS=200 npx vitest run --project sqlite --project s3
 * test/http/upload-races.test.ts` is the issue's measure.
 */
const ROUNDS = Number(process.env.UPLOAD_RACE_ROUNDS ?? (process.env.TEST_BLOBS === 's3' ? 10 : 25));
const AT_ONCE = 8;
const CONTRACT_ANSWERS = [200, 404, 409];

const pdf = readPdf('real/cups-filters__classified.pdf');
const pdfSha = sha256(pdf);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    PARSER_THREADS: '0',
    MAX_PENDING_UPLOADS_PER_TENANT: '10000',
    MAX_CONCURRENT_PARTS_PER_TENANT: '64',
  });
});
afterAll(async () => {
  await h.close();
});

const start = async () => {
  const started = await h.request('POST', '/api/open/uploads', {
    json: { file_name: 'race.pdf', size_bytes: pdf.length },
  });
  expect(started.status, started.text).toBe(201);
  return started.body.data.upload_id as string;
};
const part = (id: string) =>
  h.request('PUT', `/api/open/uploads/${id}/parts/1`, { body: pdf, contentType: 'application/octet-stream' });
const complete = (id: string) => h.request('POST', '/api/open/uploads/complete', { json: { upload_id: id } });
const abort = (id: string) => h.request('DELETE', `/api/open/uploads/${id}`);

/** The upload's end state as the API tells it, and the stored bytes when it says there is a file. */
async function settled(id: string): Promise<'completed' | 'aborted' | 'pending'> {
  const upload = await h.request('GET', `/api/open/uploads/${id}`);
  if (upload.status === 404) return 'aborted';
  expect(upload.status, upload.text).toBe(200);
  if (upload.body.data.status !== 'completed') return 'pending';
  const fileId = upload.body.data.file_id as string;
  const file = await h.request('GET', `/api/open/files/${fileId}`);
  expect(file.status, file.text).toBe(200);
  expect(file.body.data.sha256).toBe(pdfSha);
  expect(file.body.data.size_bytes).toBe(pdf.length);
  return 'completed';
}

async function rounds(
  race: (id: string) => Promise<ApiResponse[]>,
  check: (answers: ApiResponse[], end: string) => void,
) {
  const seen = new Map<string, number>();
  let next = 0;
  const runner = async () => {
    while (next < ROUNDS) {
      next += 1;
      const id = await start();
      const answers = await race(id);
      for (const answer of answers) {
        expect(CONTRACT_ANSWERS, `${answer.status} ${answer.text}`).toContain(answer.status);
        const label = `${answer.status}${answer.body?.error ? ` ${answer.body.error}` : ''}`;
        seen.set(label, (seen.get(label) ?? 0) + 1);
      }
      check(answers, await settled(id));
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, runner));
  return Object.fromEntries(seen);
}

// the local engine with SQLite's lock, S3 with PostgreSQL's: the postgres project (local disk) adds nothing
describe.skipIf(engine === 'postgres' && process.env.TEST_BLOBS !== 's3')(
  'every interleaving of part, complete and abort on one upload ends in 200, 404 or 409',
  () => {
    it(`a part racing an abort (${ROUNDS} rounds)`, async () => {
      const seen = await rounds(
        (id) => Promise.all([part(id), abort(id)]),
        ([, aborted], end) => {
          // the abort wins unless the upload was busy with the part: then it is still pending
          expect(end).toBe(aborted!.status === 200 ? 'aborted' : 'pending');
        },
      );
      expect(seen['200'] ?? 0).toBeGreaterThan(0);
    });

    it(`a complete racing a re-sent part (${ROUNDS} rounds)`, async () => {
      await rounds(
        async (id) => {
          expect((await part(id)).status).toBe(200);
          return Promise.all([complete(id), part(id)]);
        },
        ([completed], end) => {
          expect(end).toBe(completed!.status === 200 ? 'completed' : 'pending');
        },
      );
    });

    it(`a complete racing an abort (${ROUNDS} rounds)`, async () => {
      await rounds(
        async (id) => {
          expect((await part(id)).status).toBe(200);
          return Promise.all([complete(id), abort(id)]);
        },
        ([completed, aborted], end) => {
          // never both: a completed upload is not aborted, an aborted one not completed
          expect(completed!.status === 200 && aborted!.status === 200).toBe(false);
          if (completed!.status === 200) expect(end).toBe('completed');
          if (aborted!.status === 200) expect(end).toBe('aborted');
        },
      );
    });

    it(`a part racing a complete of the same bytes and an abort (${ROUNDS} rounds)`, async () => {
      await rounds(
        async (id) => {
          expect((await part(id)).status).toBe(200);
          return Promise.all([part(id), complete(id), abort(id)]);
        },
        ([, completed, aborted], end) => {
          expect(completed!.status === 200 && aborted!.status === 200).toBe(false);
          if (completed!.status === 200) expect(end).toBe('completed');
          if (aborted!.status === 200) expect(end).toBe('aborted');
        },
      );
    });
  },
);
