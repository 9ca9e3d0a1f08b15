/**
 * The live-stream probe against a running server (`npm start`, rate limits off): tenant B bursts, tenant A
 * times its events. Prints the result as JSON; exits 1 when an event was lost, sent twice, or A's waited
 * more than --max-delay-ms.
 *
 *   npm run probe:events -- --url http://127.0.0.1:8000 --token-a ota_… --token-b ota_… [--runs 1500]
 */
import { parseArgs } from 'node:util';
import { probeEventStream } from '../test/helpers/event-probe.js';
import { textPdf } from '../test/helpers/files.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8000' },
    'token-a': { type: 'string' },
    'token-b': { type: 'string' },
    runs: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '32' },
    'tail-ms': { type: 'string', default: '120000' },
    'max-delay-ms': { type: 'string', default: '10000' },
  },
});
if (!values['token-a'] || !values['token-b']) {
  console.error("--token-a and --token-b are two tenants' API tokens");
  process.exit(2);
}
const result = await probeEventStream({
  url: values.url,
  tokenA: values['token-a'],
  tokenB: values['token-b'],
  pdf: await textPdf(1, 3),
  runs: Number(values.runs),
  concurrency: Number(values.concurrency),
  tailMs: Number(values['tail-ms']),
});
const delays = result.aDelaysMs.filter((d): d is number => d !== null).sort((x, y) => x - y);
const summary = {
  ...result,
  aDelaysMs: undefined,
  aRuns: result.aDelaysMs.length,
  aNeverStreamed: result.aDelaysMs.length - delays.length,
  aDelayMsMedian: delays[Math.floor(delays.length / 2)] ?? null,
  aDelayMsMax: delays.at(-1) ?? null,
};
console.log(JSON.stringify(summary, null, 2));
const ok =
  summary.missing === 0 &&
  summary.duplicates === 0 &&
  !summary.outOfOrder &&
  summary.resumeMissing === 0 &&
  summary.resumeDuplicates === 0 &&
  summary.aNeverStreamed === 0 &&
  (summary.aDelayMsMax ?? 0) <= Number(values['max-delay-ms']);
process.exit(ok ? 0 : 1);
