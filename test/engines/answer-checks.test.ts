import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAnswerText } from '../../src/engines/parse-answer.js';
import { buildUserMessage } from '../../src/engines/prompt.js';
import { retryAfterMs } from '../../src/engines/provider-http.js';
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from '../../src/engines/retry.js';
import { checkAnswer, normaliseTokens } from '../../src/engines/validate.js';
import { DE, EN } from './engine-setup.js';

describe('parseAnswerText', () => {
  test('reads plain, fenced, prefixed, trailing-comma and truncated JSON', () => {
    assert.deepEqual(parseAnswerText('{"a":1}'), { a: 1 });
    assert.deepEqual(parseAnswerText('```\n{"a":1}\n```'), { a: 1 });
    assert.deepEqual(parseAnswerText('Here it is: {"a":1} Hope that helps!'), { a: 1 });
    assert.deepEqual(parseAnswerText('{"a":[1,2,],}'), { a: [1, 2] });
    assert.deepEqual(parseAnswerText('{"a":{"b":"cut'), { a: { b: 'cut' } });
  });

  test('gives up on text without an object', () => {
    assert.equal(parseAnswerText('I cannot help with that.'), undefined);
    assert.equal(parseAnswerText(''), undefined);
  });
});

describe('checkAnswer', () => {
  const segment = { id: 's1', text: 'Run <x1/> in <g1>bash</g1>' };

  test('matches target codes case-insensitively and keeps the first answer of a duplicate', () => {
    const answer = {
      translations: [
        { lang: 'PT-br', segments: [{ id: 's1', text: 'Execute <x1/> no <g1>bash</g1>' }] },
        { lang: 'pt-BR', segments: [{ id: 's1', text: 'ignored' }] },
      ],
    };
    const check = checkAnswer(answer, [{ lang: 'pt-BR', segment }]);
    assert.deepEqual(check.problems, []);
    assert.equal(check.accepted.get('pt-BR')?.get('s1'), 'Execute <x1/> no <g1>bash</g1>');
  });

  test('reports an empty translation and an invented token', () => {
    const answer = { translations: [{ lang: 'de', segments: [{ id: 's1', text: ' ' }, { id: 's2', text: 'a <x2/>' }] }] };
    const check = checkAnswer(answer, [
      { lang: 'de', segment },
      { lang: 'de', segment: { id: 's2', text: 'a <x1/>' } },
    ]);
    assert.deepEqual(
      check.problems.map((p) => [p.kind, p.problem]),
      [
        ['empty', 'the translation is empty'],
        ['tokens', 'unexpected token <x2/>'],
      ],
    );
  });

  test('an answer of the wrong shape is invalid JSON for every pair', () => {
    const check = checkAnswer({ translation: [] }, [{ lang: 'de', segment }]);
    assert.equal(check.invalidJson, true);
    assert.equal(check.problems[0]?.kind, 'invalid-json');
  });
});

describe('normaliseTokens', () => {
  test('rewrites look-alikes only to tokens the source has', () => {
    assert.equal(normaliseTokens('<g1>a</g1> <x1/>', '<G1 >a< /g1> &lt;x1/&gt;'), '<g1>a</g1> <x1/>');
    assert.equal(normaliseTokens('<x1/>', '<x1> and <x2>'), '<x1/> and <x2>');
    assert.equal(normaliseTokens('no tokens', 'a <g1> b'), 'a <g1> b');
  });
});

describe('buildUserMessage', () => {
  test('is header lines then one escaped line per segment, with plural categories for ICU plurals', () => {
    const message = buildUserMessage({
      source: EN,
      targets: [DE, { code: 'ru', name: 'Russian', rtl: false }],
      format: 'json',
      segments: [
        { id: '1', text: '{count, plural, one {# file} other {# files}}', ctx: 'files.count' },
        { id: '2', text: 'Line one\nLine "two" \\ end\t!' },
      ],
    });
    assert.equal(
      message,
      [
        'source: English (en)',
        'targets: German (de), Russian (ru)',
        'format: json',
        'plurals: de=one other; ru=few many one other',
        'segments:',
        '1 {count, plural, one {# file} other {# files}}',
        '2 Line one\\nLine "two" \\\\ end\\t!',
      ].join('\n'),
    );
  });

  test('a repair message carries the fix list as one JSON line', () => {
    const message = buildUserMessage(
      { targets: [DE], format: 'plain', segments: [{ id: '3', text: 'Hi <x1/>' }] },
      [{ lang: 'de', id: '3', problem: 'missing token <x1/>', previous: 'Hallo' }],
    );
    assert.equal(
      message,
      'targets: German (de)\nformat: plain\nfix: [{"lang":"de","id":"3","problem":"missing token <x1/>","previous":"Hallo"}]\nsegments:\n3 Hi <x1/>',
    );
  });
});

describe('retry timing', () => {
  test('full jitter grows exponentially up to the cap, and Retry-After wins up to the cap', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, random: () => 0.999 };
    assert.deepEqual([1, 2, 3, 4, 8].map((n) => backoffDelayMs(n, policy)), [499, 999, 1998, 3996, 29970]);
    assert.equal(backoffDelayMs(1, policy, 5000), 5000);
    assert.equal(backoffDelayMs(1, policy, 120_000), 30_000);
  });

  test('reads retry-after-ms, retry-after seconds and an HTTP date', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '150.5', 'retry-after': '9' })), 150.5);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now), 3000);
    assert.equal(retryAfterMs(new Headers()), undefined);
  });
});
