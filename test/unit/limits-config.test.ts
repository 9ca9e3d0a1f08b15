import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/kernel/config.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
}

describe('sweep, pacing and proxy settings', () => {
  it('read their defaults and their bounds', () => {
    const config = loadConfig({});
    expect(config.sweep).toEqual({ batchRows: 1000, budgetMs: 60_000 });
    expect(config.anonymousRateLimit).toEqual({ perSecond: 10, burst: 50 });
    expect(config.trustProxy).toEqual([]);
    const edges = loadConfig({
      SWEEP_BATCH_ROWS: '100000',
      SWEEP_BUDGET_SECONDS: '1',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '0',
      RATE_LIMIT_ANONYMOUS_BURST: '1',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8,::1',
    });
    expect(edges.sweep).toEqual({ batchRows: 100_000, budgetMs: 1000 });
    expect(edges.anonymousRateLimit).toEqual({ perSecond: 0, burst: 1 });
    expect(edges.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '::1']);
  });

  it('refuse values out of bounds, one line each', () => {
    const problems = problemsOf({
      SWEEP_BATCH_ROWS: '0',
      SWEEP_BUDGET_SECONDS: '0',
      RATE_LIMIT_ANONYMOUS_BURST: '0',
      TRUST_PROXY: '10.0.0.0/33,example.com',
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/SWEEP_BATCH_ROWS must be a whole number from 1 to 100000/);
    expect(problems.join('\n')).toMatch(/SWEEP_BUDGET_SECONDS must be a whole number from 1 to 86400/);
    expect(problems.join('\n')).toMatch(/RATE_LIMIT_ANONYMOUS_BURST must be a whole number from 1/);
    expect(problems.join('\n')).toMatch(
      /TRUST_PROXY must be up to 64 comma-separated IP addresses or CIDR ranges/,
    );
    expect(problemsOf({ SWEEP_BATCH_ROWS: '100001' })).toHaveLength(1);
  });
});

describe('PARSER_YIELD_MS', () => {
  it('reads 5 ms by default, and 0 (never wait) to 1000', () => {
    expect(loadConfig({}).parserYieldMs).toBe(5);
    expect(loadConfig({ PARSER_YIELD_MS: '0' }).parserYieldMs).toBe(0);
    expect(loadConfig({ PARSER_YIELD_MS: '1000' }).parserYieldMs).toBe(1000);
  });

  it('refuses values out of bounds', () => {
    for (const value of ['-1', '1001', '2.5', 'soon'])
      expect(problemsOf({ PARSER_YIELD_MS: value }).join('\n')).toMatch(
        /PARSER_YIELD_MS must be a whole number from 0 to 1000/,
      );
  });
});

describe('PARSER_THREAD_IDLE_MS', () => {
  it('reads 30 s by default, and 0 (threads never exit idle)', () => {
    expect(loadConfig({}).parserThreadIdleMs).toBe(30_000);
    expect(loadConfig({ PARSER_THREAD_IDLE_MS: '0' }).parserThreadIdleMs).toBe(0);
    expect(loadConfig({ PARSER_THREAD_IDLE_MS: '250' }).parserThreadIdleMs).toBe(250);
  });

  it('refuses what is not a whole number of milliseconds', () => {
    for (const value of ['-1', '2.5', 'soon'])
      expect(problemsOf({ PARSER_THREAD_IDLE_MS: value }).join('\n')).toMatch(
        /PARSER_THREAD_IDLE_MS must be a whole number >= 0/,
      );
  });
});

describe('TENANT_DELETION_GRACE_SECONDS', () => {
  it('reads 30 days by default, and 0 (erase at the next sweep) to a year', () => {
    expect(loadConfig({}).tenantDeletionGraceSeconds).toBe(2_592_000);
    expect(loadConfig({ TENANT_DELETION_GRACE_SECONDS: '0' }).tenantDeletionGraceSeconds).toBe(0);
    expect(loadConfig({ TENANT_DELETION_GRACE_SECONDS: '31536000' }).tenantDeletionGraceSeconds).toBe(
      31_536_000,
    );
  });

  it('refuses values out of bounds', () => {
    for (const value of ['-1', '31536001', 'later'])
      expect(problemsOf({ TENANT_DELETION_GRACE_SECONDS: value }).join('\n')).toMatch(
        /TENANT_DELETION_GRACE_SECONDS must be a whole number from 0 to 31536000/,
      );
  });
});
