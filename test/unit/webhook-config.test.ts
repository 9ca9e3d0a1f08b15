import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/kernel/config.js';

describe('webhook and event settings', () => {
  it('read the retry schedule as durations (a bare number is seconds), and default to the common schedule', () => {
    expect(loadConfig({}).webhooks.retryScheduleMs).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '250ms, 2, 1m,1d' }).webhooks.retryScheduleMs).toEqual([
      250, 2_000, 60_000, 86_400_000,
    ]);
  });

  it('refuse a bad schedule or limit with one line each, all at once', () => {
    let problems: string[] = [];
    try {
      loadConfig({
        WEBHOOK_RETRY_SCHEDULE: '5s,soon',
        MAX_STREAMS_PER_TENANT: '0',
        WEBHOOK_ALLOW_HTTP: 'yes',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^MAX_STREAMS_PER_TENANT must be a whole number/);
    expect(problems.join('\n')).toMatch(/WEBHOOK_RETRY_SCHEDULE must be up to 100 comma-separated durations/);
    expect(problems.join('\n')).toMatch(/WEBHOOK_ALLOW_HTTP must be one of true, false/);
  });

  it('ship with webhooks to public https URLs only', () => {
    const { webhooks, events } = loadConfig({});
    expect(webhooks).toMatchObject({ allowHttp: false, allowPrivateNetworks: false, timeoutMs: 10_000 });
    expect(events).toMatchObject({
      retentionMs: 30 * 86_400_000,
      maxStreamsPerTenant: 8,
      heartbeatMs: 15_000,
    });
  });

  it('read the stream, DNS and lease settings, and refuse bad ones', () => {
    const shipped = loadConfig({});
    expect(shipped.events.maxUnreadBytes).toBe(1024 * 1024);
    expect(shipped.webhooks.dnsServers).toEqual([]);
    expect(shipped.webhooks.leaseMs).toBe(30_000);
    const set = loadConfig({
      MAX_STREAM_UNREAD_BYTES: '4096',
      WEBHOOK_DNS_SERVERS: '127.0.0.1:5353, [::1]:53,10.0.0.2',
      WEBHOOK_LEASE_MS: '1000',
    });
    expect(set.events.maxUnreadBytes).toBe(4096);
    expect(set.webhooks.dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53', '10.0.0.2']);
    expect(set.webhooks.leaseMs).toBe(1000);
    let problems: string[] = [];
    try {
      loadConfig({
        MAX_STREAM_UNREAD_BYTES: '100',
        WEBHOOK_DNS_SERVERS: 'dns.example',
        WEBHOOK_LEASE_MS: '5',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.join('\n')).toMatch(/MAX_STREAM_UNREAD_BYTES must be a whole number from 1024/);
    expect(problems.join('\n')).toMatch(/WEBHOOK_DNS_SERVERS must be up to 16 comma-separated IP addresses/);
    expect(problems.join('\n')).toMatch(/WEBHOOK_LEASE_MS must be a whole number >= 100/);
  });
});
