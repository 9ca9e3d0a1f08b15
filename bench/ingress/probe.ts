import { existsSync } from 'node:fs';

/**
 * Sequential GETs, one every 5 ms, until `stopFile` exists: the latencies a light client sees while the
 * server is under someone else's load. Prints one JSON line: count, p50, p99, max (ms).
 */
const [url, token, stopFile] = process.argv.slice(2) as [string, string, string];
const latencies: number[] = [];
const headers = token ? { authorization: `Bearer ${token}` } : undefined;
while (!existsSync(stopFile)) {
  const started = performance.now();
  const answer = await fetch(url, { headers });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
  latencies.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
console.log(JSON.stringify({ count: latencies.length, p50: at(0.5), p99: at(0.99), max: latencies.at(-1) }));
