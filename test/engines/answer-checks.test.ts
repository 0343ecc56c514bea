import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAnswerText } from '../../src/engines/parse-answer.js';
import { answerSchema, buildUserMessage } from '../../src/engines/prompt.js';
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
  const FOUR = [
    { id: 'a', text: 'One <x1/>' },
    { id: 'b', text: 'Two' },
    { id: 'c', text: 'Three' },
    { id: 'd', text: 'Four' },
  ];
  const accepted = (check: ReturnType<typeof checkAnswer>) =>
    Object.fromEntries([...check.accepted].map(([lang, byId]) => [lang, Object.fromEntries(byId)]));

  test('matches target codes case-insensitively and keeps the first group of a duplicate', () => {
    const answer = {
      translations: [
        { lang: 'PT-br', segments: ['Execute <x1/> no <g1>bash</g1>'] },
        { lang: 'pt-BR', segments: ['ignored'] },
      ],
    };
    const check = checkAnswer(answer, [segment], ['pt-BR']);
    assert.deepEqual(check.problems, []);
    assert.equal(check.accepted.get('pt-BR')?.get('s1'), 'Execute <x1/> no <g1>bash</g1>');
  });

  test('reports an empty translation and an invented token against their segments', () => {
    const answer = { translations: [{ lang: 'de', segments: [' ', 'a <x2/>'] }] };
    const check = checkAnswer(answer, [segment, { id: 's2', text: 'a <x1/>' }], ['de']);
    assert.deepEqual(check.problems, [
      { kind: 'empty', lang: 'de', id: 's1', problem: 'the translation is empty', previous: ' ' },
      { kind: 'tokens', lang: 'de', id: 's2', problem: 'unexpected token <x2/>', previous: 'a <x2/>' },
    ]);
    assert.equal(check.accepted.size, 0);
  });

  test('an answer of the wrong shape is one invalid-JSON problem for the whole answer', () => {
    for (const answer of [undefined, { translation: [] }, { translations: {} }, [], {}, { fr: ['Bonjour'] }, { de: 'Hallo' }]) {
      const check = checkAnswer(answer, [segment], ['de']);
      assert.deepEqual(check.problems, [{ kind: 'invalid-json', problem: 'the answer was not valid JSON in the required shape' }]);
    }
  });

  test('a target that is absent is one whole-target problem; malformed groups are skipped', () => {
    const answer = { translations: [{ lang: 'de', segments: 'Hallo' }, { lang: 'fr' }, 'x', { lang: 'ja', segments: ['一', '二', '三', '四 <x1/>'] }] };
    const check = checkAnswer(answer, FOUR, ['de', 'fr']);
    assert.deepEqual(check.problems, [
      { kind: 'missing', lang: 'de', problem: 'missing from the answer' },
      { kind: 'missing', lang: 'fr', problem: 'missing from the answer' },
    ]);
  });

  test('an array of the wrong length accepts nothing of its target, even entries that would pass', () => {
    const answer = {
      translations: [
        // a line skipped and another split: 4 entries, but shifted
        { lang: 'de', segments: ['Eins <x1/>', 'Drei', 'Vi', 'er'] },
        // two lines merged into one: 3 entries
        { lang: 'fr', segments: ['Un <x1/>', 'Deux Trois', 'Quatre'] },
        { lang: 'ja', segments: ['一 <x1/>', '二', '三', '四', '五'] },
        { lang: 'ar', segments: ['واحد <x1/>', 'اثنان', 'ثلاثة', 'أربعة'] },
      ],
    };
    const check = checkAnswer(answer, FOUR, ['de', 'fr', 'ja', 'ar']);
    assert.deepEqual(check.problems, [
      { kind: 'count', lang: 'fr', problem: 'expected 4 translations, got 3' },
      { kind: 'count', lang: 'ja', problem: 'expected 4 translations, got 5' },
    ]);
    assert.deepEqual(Object.keys(accepted(check)), ['de', 'ar']);
    assert.equal(accepted(check).de?.d, 'er', 'a skip plus a split in the same target is the case the count cannot see');
    assert.equal(checkAnswer({ translations: [{ lang: 'de', segments: [] }] }, [segment], ['de']).problems[0]?.problem, 'expected 1 translation, got 0');
  });

  test('a truncated answer keeps the aligned prefix of its last target minus the last entry', () => {
    const answer = {
      translations: [
        { lang: 'de', segments: ['Eins <x1/>', 'Zwei', 'Drei', 'Vier'] },
        { lang: 'fr', segments: ['Un <x1/>', 'Deux', 'Tro'] },
      ],
    };
    const check = checkAnswer(answer, FOUR, ['de', 'fr', 'ja'], true);
    assert.deepEqual(accepted(check), {
      de: { a: 'Eins <x1/>', b: 'Zwei', c: 'Drei', d: 'Vier' },
      fr: { a: 'Un <x1/>', b: 'Deux' },
    });
    assert.deepEqual(check.problems, [
      { kind: 'missing', lang: 'fr', id: 'c', problem: 'missing from the answer' },
      { kind: 'missing', lang: 'fr', id: 'd', problem: 'missing from the answer' },
      { kind: 'missing', lang: 'ja', problem: 'missing from the answer' },
    ]);

    // Not truncated, the same short array is a wrong count and nothing of fr is kept.
    const whole = checkAnswer(answer, FOUR, ['de', 'fr']);
    assert.deepEqual(whole.problems, [{ kind: 'count', lang: 'fr', problem: 'expected 4 translations, got 3' }]);
    assert.deepEqual(Object.keys(accepted(whole)), ['de']);
  });

  test('reads the keyed shape of a one-target request, its code in any letter case', () => {
    const check = checkAnswer({ 'PT-br': ['Execute <x1/> no <g1>bash</g1>'] }, [segment], ['pt-BR']);
    assert.deepEqual(check.problems, []);
    assert.equal(check.accepted.get('pt-BR')?.get('s1'), 'Execute <x1/> no <g1>bash</g1>');
    const short = checkAnswer({ de: ['Eins <x1/>', 'Zwei', 'Drei'] }, FOUR, ['de']);
    assert.deepEqual(short.problems, [{ kind: 'count', lang: 'de', problem: 'expected 4 translations, got 3' }]);
  });

  test('a truncated keyed answer keeps the aligned prefix minus the last entry', () => {
    const cut = parseAnswerText('{"de":["Eins <x1/>","Zwei","Dr');
    const check = checkAnswer(cut, FOUR, ['de'], true);
    assert.deepEqual(accepted(check), { de: { a: 'Eins <x1/>', b: 'Zwei' } });
    assert.deepEqual(
      check.problems.map((problem) => problem.id),
      ['c', 'd'],
    );
  });

  test('in a truncated answer only the last group is cut; the others must have the full count', () => {
    const answer = {
      translations: [
        { lang: 'de', segments: ['Eins <x1/>', 'Zwei'] },
        { lang: 'fr', segments: ['Un <x1/>', 'Deux', 'Trois', 'Quatre', 'Cinq', 'Six'] },
      ],
    };
    const check = checkAnswer(answer, FOUR, ['de', 'fr'], true);
    assert.deepEqual(check.problems, [
      { kind: 'count', lang: 'de', problem: 'expected 4 translations, got 2' },
      { kind: 'count', lang: 'fr', problem: 'expected 4 translations, got more than 4' },
    ]);
    assert.equal(check.accepted.size, 0);

    // When the cut fell inside a group that could not be read, the complete groups before it are whole.
    const cutEarly = { translations: [{ lang: 'de', segments: ['Eins <x1/>', 'Zwei', 'Drei', 'Vier'] }, { lang: 'fr' }] };
    const early = checkAnswer(cutEarly, FOUR, ['de', 'fr'], true);
    assert.equal(early.accepted.get('de')?.size, 4);
    assert.deepEqual(early.problems, [{ kind: 'missing', lang: 'fr', problem: 'missing from the answer' }]);
  });

  test('an entry that is not a string is missing for its line only', () => {
    const answer = { translations: [{ lang: 'de', segments: ['Eins <x1/>', null, { text: 'Drei' }, 'Vier'] }] };
    const check = checkAnswer(answer, FOUR, ['de']);
    assert.deepEqual(accepted(check), { de: { a: 'Eins <x1/>', d: 'Vier' } });
    assert.deepEqual(
      check.problems.map((p) => [p.kind, p.id]),
      [
        ['missing', 'b'],
        ['missing', 'c'],
      ],
    );
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
  test('is header lines, the segment count, then one escaped line per segment without ids', () => {
    const message = buildUserMessage({
      source: EN,
      targets: [DE, { code: 'ru', name: 'Russian', rtl: false }],
      format: 'json',
      segments: [
        {
          id: '1',
          text: '<x1/><g1><x2/> file</g1><g3><x5/> files</g3><g4><x6/> files</g4><g2><x3/> files</g2><x4/>',
          ctx: 'files.count',
          pluralBranches: [
            { pair: 3, selector: 'few', type: 'cardinal' },
            { pair: 4, selector: 'many', type: 'cardinal' },
          ],
        },
        { id: '2', text: 'Line one\nLine "two" \\ end\t!\r\u2028' },
        { id: '3', text: '  indented ' },
      ],
    });
    assert.equal(
      message,
      [
        'source: English (en)',
        'format: json',
        'segments (3):',
        '<x1/><g1><x2/> file</g1><g3><x5/> files</g3><g4><x6/> files</g4><g2><x3/> files</g2><x4/>',
        'Line one\\nLine "two" \\\\ end\\t!\\r\\u2028',
        '  indented ',
        'targets: German (de), Russian (ru)',
        'plurals: de one: 1 | other: 0, 2, 3, 4, 5; ru one: 1, 21, 31, 41, 51 | few: 2, 3, 4, 22, 23 | many: 0, 5, 6, 7, 8 | other: 0.5',
        'branches: <g3> few, <g4> many on line 1',
      ].join('\n'),
    );
  });

  test('a repair message carries the fix list as one JSON line, entries pointing at lines of this message', () => {
    const message = buildUserMessage(
      { targets: [DE], format: 'plain', segments: [{ id: '7', text: 'Hi <x1/>' }] },
      [
        { lang: 'de', line: 1, problem: 'missing token <x1/>', previous: 'Hallo' },
        { lang: 'fr', problem: 'expected 1 translation, got 2' },
      ],
    );
    assert.equal(
      message,
      'format: plain\nsegments (1):\nHi <x1/>\ntargets: German (de)\nfix: [{"lang":"de","line":1,"problem":"missing token <x1/>","previous":"Hallo"},{"lang":"fr","problem":"expected 1 translation, got 2"}]',
    );
  });
});

describe('answerSchema', () => {
  test('for one target is keyed by its code: one required array of strings, nothing else allowed', () => {
    assert.deepEqual(answerSchema(['pt-BR']), {
      type: 'object',
      additionalProperties: false,
      required: ['pt-BR'],
      properties: { 'pt-BR': { type: 'array', items: { type: 'string' } } },
    });
  });

  test('for several targets is strict-mode shaped: every object closed with all its properties required, lang the only enum', () => {
    const schema = answerSchema(['de', 'pt-BR']);
    const walk = (node: any, path: string): void => {
      if (node.type === 'object') {
        assert.equal(node.additionalProperties, false, path);
        assert.deepEqual([...node.required].sort(), Object.keys(node.properties).sort(), path);
        for (const [key, child] of Object.entries(node.properties)) walk(child, `${path}.${key}`);
      } else if (node.type === 'array') {
        walk(node.items, `${path}[]`);
      } else {
        assert.equal(node.type, 'string', path);
        if (node.enum) assert.equal(path, '$.translations[].lang');
      }
    };
    walk(schema, '$');
    const group = (schema as any).properties.translations.items;
    assert.deepEqual(group.properties.lang.enum, ['de', 'pt-BR']);
    assert.deepEqual(group.properties.segments, { type: 'array', items: { type: 'string' } });
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
