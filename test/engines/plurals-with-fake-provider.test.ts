/**
 * Plurals with a model behind the API (CONTRACT §5, issue 32): the real app over HTTP with
 * an OpenAI-compatible fake provider. The model is told each target's categories with
 * example numbers and which pairs are which branch; a model that answers with the
 * source's categories (the usual mistake) gets a repair that names the missing branches,
 * and one that never learns fails the request with translation_error, uncharged. Every
 * answer is judged by @formatjs/icu-messageformat-parser.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { openaiReply, targetCodes, userMessage, type ReplyScript } from '../helpers/fake-provider.js';
import { icuPlurals } from '../helpers/icu.js';

const SOURCE = 'You have {count, plural, =0 {no messages} one {# message} other {# messages}}.';
const SOURCE_SELECTORS = new Set(['=0', 'one', 'other']);

/** The `branches:` line (`<g4> few, <g5> many on lines 1-3, 5; …`) as line number → added pairs with their categories. */
function branchesByLine(line: string | undefined): Map<number, { pair: number; selector: string }[]> {
  const out = new Map<number, { pair: number; selector: string }[]>();
  for (const part of (line ?? '').split('; ').filter(Boolean)) {
    const [, list, lines] = /^(.*) on lines? (.*)$/.exec(part)!;
    const branches = [...list!.matchAll(/<g(\d+)> ([^,\s]+)/g)].map((m) => ({ pair: Number(m[1]), selector: m[2]! }));
    for (const range of lines!.split(', ')) {
      const [from, to = from] = range.split('-').map(Number);
      for (let n = from!; n <= to!; n++) out.set(n, branches);
    }
  }
  return out;
}

/** A segment with the branches the source does not have left out: what a model that ignores the categories writes. */
function withSourceBranchesOnly(text: string, branches: readonly { pair: number; selector: string }[]): string {
  let out = text;
  for (const { pair, selector } of branches) {
    if (!SOURCE_SELECTORS.has(selector)) out = out.replace(new RegExp(`<g${pair}>.*?</g${pair}>`), '');
  }
  return out;
}

/** Answers `[code] text`; the first `wrongAnswers` answers for each target keep only the source's branches. */
function pluralTranslator(wrongAnswers: number): ReplyScript {
  const seen = new Map<string, number>();
  return (request) => {
    const message = userMessage(request);
    const branches = branchesByLine(message.branches);
    const translations = Object.fromEntries(
      targetCodes(message).map((code) => {
        const count = (seen.get(code) ?? 0) + 1;
        seen.set(code, count);
        return [
          code,
          message.segments.map((text, i) => {
            const answer = `[${code}] ${text}`;
            return count <= wrongAnswers ? withSourceBranchesOnly(answer, branches.get(i + 1) ?? []) : answer;
          }),
        ];
      }),
    );
    return openaiReply(translations, { input: 100, output: 40 });
  };
}

describe('plurals with an OpenAI-compatible model behind the API', () => {
  // One slot: each target's message is one call, as these tests read them (on more slots
  // a message can go in parts, plural-parts-with-fake-provider.test.ts).
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '1' } });

  const translate = (payload: object) =>
    app.t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: app.auth }, payload: { memory: false, ...payload } });
  const tokensUsed = async (): Promise<number> =>
    json(await app.t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: app.auth } })).tokens_used;

  test('a model that first answers with the source’s categories is repaired, and each target gets exactly its own', async () => {
    app.provider.fallback(pluralTranslator(1));
    const response = await translate({ content: SOURCE, targets: ['ru', 'de', 'ja'], source: 'en', format: 'plain' });
    assert.equal(response.statusCode, 200, response.body);
    const { translations } = json(response);
    assert.deepEqual(icuPlurals(translations.ru)[0]!.keys, ['=0', 'one', 'few', 'many', 'other']);
    assert.deepEqual(icuPlurals(translations.de)[0]!.keys, ['=0', 'one', 'other']);
    assert.deepEqual(icuPlurals(translations.ja)[0]!.keys, ['=0', 'other']);
    assert.equal(translations.ru, 'You have {count, plural, =0 {no messages} one {# message} few {# messages} many {# messages} other {# messages}}.'.replace('You', '[ru] You'));

    const messages = app.provider.requests.map(userMessage);
    const russian = messages.find((m) => targetCodes(m).includes('ru') && m.fix === undefined)!;
    // Told the categories with example numbers from Intl, and which pairs were added for which category.
    assert.match(russian.plurals!, /ru one: 1, 21, 31, 41, 51 \| few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8 \| other: 0\.5/);
    assert.match(russian.branches!, /^<g\d+> few, <g\d+> many on line 1$/);
    const german = messages.find((m) => targetCodes(m).includes('de'))!;
    assert.equal(german.plurals, undefined, 'a target with the source’s forms is told nothing more');
    assert.deepEqual(targetCodes(russian), ['ru'], 'a target with other categories is asked apart');
    // The repair names the branches the answer left out.
    const repair = messages.find((m) => m.fix?.some((f) => f.lang === 'ru'));
    assert.ok(repair, 'a repair call for ru');
    assert.match(repair.fix!.find((f) => f.lang === 'ru')!.problem, /plural message needs the target's forms: missing <g\d+> \(few\), <g\d+> \(many\)/);
  });

  test('a model that never writes the target’s categories fails the request with translation_error, uncharged', async () => {
    app.provider.fallback(pluralTranslator(Number.POSITIVE_INFINITY));
    const before = await tokensUsed();
    const response = await translate({ content: SOURCE, targets: ['pl'], source: 'en', format: 'plain' });
    assert.equal(response.statusCode, 500, response.body);
    assert.equal(json(response).error, 'translation_error');
    assert.equal(await tokensUsed(), before);
    assert.ok(app.provider.requests.length >= 2, 'repaired or retried before giving up');
  });

  test('i18next plural keys in JSON come back as the target’s keys, the model asked for the new forms', async () => {
    app.provider.fallback(pluralTranslator(0));
    const content = '{\n  "inbox": {\n    "message_one": "{{count}} message",\n    "message_other": "{{count}} messages"\n  },\n  "status_other": "Others"\n}';
    const response = await translate({ content, targets: ['uk', 'ja'], source: 'en', format: 'json' });
    assert.equal(response.statusCode, 200, response.body);
    const { translations } = json(response);
    assert.deepEqual(Object.keys(JSON.parse(translations.uk).inbox), ['message_one', 'message_few', 'message_many', 'message_other']);
    assert.deepEqual(Object.keys(JSON.parse(translations.ja).inbox), ['message_other']);
    assert.deepEqual(Object.keys(JSON.parse(translations.uk)), ['inbox', 'status_other'], 'a lone _other is no plural');
  });
});
