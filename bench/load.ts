import autocannon from 'autocannon';

/**
 * Load from this process against a server in another. autocannon opens every connection at t=0, which
 * against a busy Node server inflates the first second's latencies; so the first `warmupS` seconds only warm
 * the connections and the figures come from the responses after it, on the same, warmed connections.
 */
export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  warmupS: number;
  durationS: number;
}

export interface LoadResult {
  /** Median of the per-second request counts after warm-up. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  statuses: Record<string, number>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const perSecond = new Map<number, number>();
    const statuses: Record<string, number> = {};
    let measuring = false;
    let measureStart = 0;
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.warmupS + options.durationS,
        headers: options.headers,
      },
      (error) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies).sort();
        const counts = [...perSecond.entries()]
          .filter(([second]) => second < options.durationS)
          .map(([, n]) => n)
          .sort((a, b) => a - b);
        const non2xx = Object.entries(statuses)
          .filter(([status]) => !status.startsWith('2'))
          .reduce((sum, [, n]) => sum + n, 0);
        resolve({
          rps: counts.length ? counts[Math.floor(counts.length / 2)]! : 0,
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          requests: latencies.length,
          non2xx,
          statuses,
        });
      },
    );
    const warmTimer = setTimeout(() => {
      measuring = true;
      measureStart = performance.now();
    }, options.warmupS * 1000);
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (!measuring) return;
      latencies.push(responseTime);
      const second = Math.floor((performance.now() - measureStart) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
    instance.on('done', () => clearTimeout(warmTimer));
  });
}
