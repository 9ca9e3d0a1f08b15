import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../src/events/delivering/dispatcher.js';
import type { SendResult } from '../../src/events/delivering/sender.js';
import { signedHeaders } from '../../src/events/delivering/signing.js';
import {
  addressAllowed,
  hostRefusal,
  parseEndpointUrl,
  resolveAllowed,
} from '../../src/events/delivering/url-policy.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { Webhook } from 'standardwebhooks';

const answer = (statusCode: number | null, retryAfterMs: number | null = null): SendResult => ({
  statusCode,
  error: statusCode === null ? 'ECONNRESET' : null,
  durationMs: 1,
  responseBody: '',
  retryAfterMs,
});
const now = new Date('2026-11-25T00:00:00.000Z');
const schedule = [5_000, 300_000];

describe('what an attempt means', () => {
  it('2xx succeeds; 3xx, 4xx, 5xx and no answer are retried on the schedule, then given up', () => {
    expect(verdictOf(answer(204), 1, schedule, now).verdict).toEqual({ outcome: 'succeeded' });
    for (const status of [301, 400, 500, null]) {
      expect(verdictOf(answer(status), 1, schedule, now).verdict).toEqual({
        outcome: 'retry',
        nextAttemptAt: '2026-11-25T00:00:05.000Z',
      });
      expect(verdictOf(answer(status), 2, schedule, now).verdict).toEqual({
        outcome: 'retry',
        nextAttemptAt: '2026-11-25T00:05:00.000Z',
      });
      expect(verdictOf(answer(status), 3, schedule, now).verdict).toEqual({ outcome: 'failed' });
    }
  });

  it("honours a 429/502/503/504 Retry-After longer than the schedule's wait, up to a day", () => {
    expect(verdictOf(answer(429, 60_000), 1, schedule, now).verdict).toMatchObject({
      nextAttemptAt: '2026-11-25T00:01:00.000Z',
    });
    expect(verdictOf(answer(503, 1_000), 1, schedule, now).verdict).toMatchObject({
      nextAttemptAt: '2026-11-25T00:00:05.000Z',
    });
    expect(verdictOf(answer(500, 60_000), 1, schedule, now).verdict).toMatchObject({
      nextAttemptAt: '2026-11-25T00:00:05.000Z',
    });
    expect(verdictOf(answer(504, 7 * 86_400_000), 1, schedule, now).verdict).toMatchObject({
      nextAttemptAt: '2026-11-26T00:00:00.000Z',
    });
  });

  it('410 Gone gives up and disables the endpoint', () => {
    expect(verdictOf(answer(410), 1, schedule, now)).toEqual({
      verdict: { outcome: 'failed' },
      disable: true,
    });
  });
});

describe('signatures', () => {
  it('are what the Standard Webhooks reference makes, one per secret', () => {
    const secret = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
    const old = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const body = '{"id":"e1"}';
    const ts = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([secret, old], 'e1', ts, body);
    const reference = new Webhook(secret).sign('e1', new Date(ts * 1000), body);
    expect(headers['webhook-signature'].split(' ')[0]).toBe(reference);
    expect(() => new Webhook(old).verify(body, headers)).not.toThrow();
  });
});

describe('where a webhook may go', () => {
  const shipped = { allowHttp: false, allowPrivateNetworks: false, timeoutMs: 2000, dnsServers: [] };
  it('allows global unicast addresses only, IPv4 and IPv6, mapped addresses as their IPv4', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.251',
      '0.0.0.0',
      '255.255.255.255',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12::1',
      'ff02::1',
      'fec0::1',
      '100::1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b::a00:1',
      // IPv4-compatible (::/96), 6to4, Teredo, documentation, ORCHID: outside global unicast or special in it
      '::7f00:1',
      '::a00:1',
      '::8.8.8.8',
      '2002:7f00:1::1',
      '2001::1',
      '2001:db8::1',
      '2001:20::1',
      '3fff::1',
      '5f00::1',
    ]) {
      expect(addressAllowed(address), address).toBe(false);
    }
    for (const address of [
      '8.8.8.8',
      '100.128.0.1',
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
      '2a00:1450::1',
      '::ffff:8.8.8.8',
    ]) {
      expect(addressAllowed(address), address).toBe(true);
    }
  });

  it('checks the form, then every address the name resolves to, and says nothing of what it resolved to', async () => {
    expect(() => parseEndpointUrl('http://a.example/x', shipped)).toThrow(/https/);
    expect(parseEndpointUrl('http://a.example/x', { ...shipped, allowHttp: true }).hostname).toBe(
      'a.example',
    );
    const dns = await startDnsServer({
      'inside.example': ['10.1.2.3'],
      'mixed.example': ['8.8.8.8', 'fd00::1'],
      'public.example': ['8.8.4.4', '2001:4860:4860::8844'],
    });
    try {
      const policy = { ...shipped, dnsServers: [dns.server] };
      const refusals: string[] = [];
      for (const url of [
        'https://localhost/x',
        'https://[::1]/x',
        'https://inside.example/x',
        'https://mixed.example/x',
        'https://nowhere.example/x',
      ]) {
        const refused = await resolveAllowed(new URL(url), policy).then(
          () => 'allowed',
          (error: Error) => error.message,
        );
        refusals.push(refused);
        expect(refused, url).not.toMatch(/127\.0\.0\.1|::1|10\.1\.2\.3|fd00|resolves to/);
      }
      // one message for every refusal: a private answer and no answer look the same
      expect(new Set(refusals)).toEqual(new Set([hostRefusal(shipped)]));
      expect(await resolveAllowed(new URL('https://public.example/x'), policy)).toEqual({
        address: '8.8.4.4',
        family: 4,
      });
      expect(
        await resolveAllowed(new URL('https://inside.example/x'), { ...policy, allowPrivateNetworks: true }),
      ).toEqual({ address: '10.1.2.3', family: 4 });
      expect(
        await resolveAllowed(new URL('https://127.0.0.1/x'), { ...shipped, allowPrivateNetworks: true }),
      ).toEqual({ address: '127.0.0.1', family: 4 });
      expect(await resolveAllowed(new URL('https://8.8.8.8/x'), shipped)).toEqual({
        address: '8.8.8.8',
        family: 4,
      });
    } finally {
      await dns.close();
    }
  });

  it('gives a name that no DNS server answers for up to the timeout, then refuses it', async () => {
    const silent = await startDnsServer({}, true);
    try {
      for (const timeoutMs of [200, 800]) {
        const started = performance.now();
        const refused = await resolveAllowed(new URL('https://slow.example/x'), {
          ...shipped,
          timeoutMs,
          dnsServers: [silent.server],
        }).then(
          () => 'allowed',
          (error: Error) => error.message,
        );
        const took = performance.now() - started;
        expect(refused).toBe(hostRefusal(shipped));
        expect(took).toBeGreaterThanOrEqual(timeoutMs - 20);
        expect(took).toBeLessThan(timeoutMs + 1000);
      }
      expect(silent.questions()).toBeGreaterThan(0);
    } finally {
      await silent.close();
    }
  });
});
