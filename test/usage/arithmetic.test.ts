import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { estimateBatchTokens, estimateTokens } from '../../src/usage/estimate.js';
import { monthlyGrant } from '../../src/usage/grants.js';
import { periodOf } from '../../src/usage/period.js';
import { buildUsageReport } from '../../src/usage/report.js';

describe('the pre-check estimate', () => {
  it('is ceil(length / 4) × (targets + 1)', () => {
    assert.equal(estimateTokens(5, 2), 2 * 3);
    assert.equal(estimateTokens(8, 1), 2 * 2);
    assert.equal(estimateTokens(9, 36), 3 * 37);
    assert.equal(estimateTokens(1, 1), 2);
  });

  it('counts UTF-16 code units, so an emoji is two', () => {
    assert.equal('😀😀'.length, 4);
    assert.equal(estimateTokens('😀😀'.length, 1), 2);
    assert.equal(estimateTokens('😀😀😀'.length, 1), 4);
  });

  it('sums a batch over its items', () => {
    assert.equal(estimateBatchTokens(['abcd', 'abcde', 'a'], 2), (1 + 2 + 1) * 3);
  });
});

describe('calendar months in UTC', () => {
  it('start at the first millisecond and end at the last', () => {
    const period = periodOf(Date.parse('2026-11-21T12:34:56.789Z'));
    assert.equal(period.key, '2026-11');
    assert.equal(period.start.toISOString(), '2026-11-01T00:00:00.000Z');
    assert.equal(period.end.toISOString(), '2026-11-30T23:59:59.999Z');
  });

  it('turn over exactly at midnight UTC on the first', () => {
    assert.equal(periodOf(Date.parse('2026-11-30T23:59:59.999Z')).key, '2026-11');
    assert.equal(periodOf(Date.parse('2026-12-01T00:00:00.000Z')).key, '2026-12');
    assert.equal(periodOf(Date.parse('2026-12-31T23:59:59.999Z')).end.toISOString(), '2026-12-31T23:59:59.999Z');
    assert.equal(periodOf(Date.parse('2027-01-01T00:00:00.000Z')).key, '2027-01');
  });

  it('know leap years', () => {
    assert.equal(periodOf(Date.parse('2028-02-10T00:00:00Z')).end.toISOString(), '2028-02-29T23:59:59.999Z');
    assert.equal(periodOf(Date.parse('2027-02-10T00:00:00Z')).end.toISOString(), '2027-02-28T23:59:59.999Z');
  });

  it('ignore the server time zone', () => {
    // 23:30 on the 31st in UTC-5 is already the next month in UTC.
    assert.equal(periodOf(Date.parse('2026-10-31T23:30:00-05:00')).key, '2026-11');
  });
});

describe('the usage report', () => {
  const now = Date.parse('2026-11-21T00:00:00Z');

  it('reports remaining tokens within the grant', () => {
    const report = buildUsageReport({ tier: 'free', used: 30_000, included: 100_000, now });
    assert.deepEqual(report, {
      periodStart: new Date('2026-11-01T00:00:00.000Z'),
      periodEnd: new Date('2026-11-30T23:59:59.999Z'),
      tokensUsed: 30_000,
      tokensIncluded: 100_000,
      tokensRemaining: 70_000,
      overageTokens: 0,
      tier: 'free',
    });
  });

  it('reports overage past the grant and never a negative remainder', () => {
    const report = buildUsageReport({ tier: 'starter', used: 1_250_000, included: 1_000_000, now });
    assert.equal(report.tokensRemaining, 0);
    assert.equal(report.overageTokens, 250_000);
  });

  it('has no grant, remainder or overage for enterprise', () => {
    const report = buildUsageReport({ tier: 'enterprise', used: 9_000_000_000, included: null, now });
    assert.equal(report.tokensIncluded, null);
    assert.equal(report.tokensRemaining, null);
    assert.equal(report.overageTokens, 0);
  });
});

describe('tier grants', () => {
  it('default to the contract and follow configuration', () => {
    const defaults = loadConfig({});
    assert.deepEqual(
      ['free', 'starter', 'growth', 'scale', 'enterprise'].map((t) => monthlyGrant(defaults, t as never)),
      [100_000, 1_000_000, 5_000_000, 20_000_000, null],
    );
    assert.equal(monthlyGrant(loadConfig({ FREE_TIER_MONTHLY_TOKENS: '500' }), 'free'), 500);
  });
});
