import { pino } from 'pino';
import { expect, it } from 'vitest';
import { ClaimLoop } from '../../src/queue/claim-loop.js';

const silent = pino({ level: 'silent' });

it('a stop that comes while a claim is on its way waits for it, and the jobs it leased are processed', async () => {
  let claimed!: (jobs: string[]) => void;
  const claiming = new Promise<string[]>((resolve) => (claimed = resolve));
  const processed: string[] = [];
  let claims = 0;
  const loop = new ClaimLoop<string>(
    {
      claim: () => {
        claims++;
        return claims === 1 ? claiming : Promise.resolve([]);
      },
      process: async (job) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        processed.push(job);
      },
    },
    { concurrency: 2, pollMs: 60_000 },
    silent,
    'test jobs',
  );
  loop.start();
  await new Promise((resolve) => setImmediate(resolve));
  expect(claims).toBe(1);
  let stopped = false;
  const stopping = loop.stop().then(() => (stopped = true));
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(stopped).toBe(false);
  claimed(['a', 'b']);
  await stopping;
  expect(processed.sort()).toEqual(['a', 'b']);
  // and nothing is claimed after the stop
  expect(claims).toBe(1);
});

it('a stop with no claim on its way returns once the jobs in hand are done', async () => {
  const loop = new ClaimLoop<string>(
    { claim: async () => [], process: async () => undefined },
    { concurrency: 1, pollMs: 60_000 },
    silent,
    'test jobs',
  );
  loop.start();
  await new Promise((resolve) => setTimeout(resolve, 10));
  await expect(loop.stop()).resolves.toBeUndefined();
});
