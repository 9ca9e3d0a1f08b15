import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseEndpointUrl, resolveAllowed, UrlNotAllowed, type UrlPolicy } from './url-policy.js';

/** The receiver's answer is kept up to this many bytes (the attempt log shows it). */
export const KEPT_ANSWER_BYTES = 4096;

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string;
  /** The receiver's `Retry-After` in milliseconds, when it sent one. */
  retryAfterMs: number | null;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

function retryAfterMs(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/**
 * POSTs one delivery: to the address checked against the policy (the connection never resolves the name
 * again), no redirect followed, the whole exchange (name resolution included) bounded by the policy's
 * `timeoutMs`, at most 4 KiB of the answer read.
 */
export async function sendDelivery(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  policy: UrlPolicy,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): SendResult => ({
    statusCode: null,
    error,
    durationMs: elapsed(),
    responseBody: '',
    retryAfterMs: null,
  });
  let url: URL;
  let pinned: { address: string; family: 4 | 6 };
  try {
    url = parseEndpointUrl(rawUrl, policy);
    pinned = await resolveAllowed(url, policy);
  } catch (error) {
    if (error instanceof UrlNotAllowed) return failed(error.message);
    throw error;
  }
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const payload = Buffer.from(body);
  const secure = url.protocol === 'https:';
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'open-tenant-api-webhooks/1',
        },
      },
      (response) => {
        const kept: Buffer[] = [];
        let size = 0;
        const done = () => {
          finish({
            statusCode: response.statusCode ?? null,
            error: null,
            durationMs: elapsed(),
            responseBody: Buffer.concat(kept).toString('utf8'),
            retryAfterMs: retryAfterMs(response.headers['retry-after']),
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < KEPT_ANSWER_BYTES) kept.push(chunk.subarray(0, KEPT_ANSWER_BYTES - size));
          size += chunk.length;
          // the rest is not wanted: stop reading, and close the connection rather than drain it
          if (size >= KEPT_ANSWER_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    // the name's resolution took part of the time: the exchange gets what is left
    const timer = setTimeout(
      () => {
        finish(failed(`No answer within ${policy.timeoutMs} ms`));
        request.destroy();
      },
      Math.max(0, policy.timeoutMs - elapsed()),
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish(failed(error.code ?? error.message)));
    request.end(payload);
  });
}
