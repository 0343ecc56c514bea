/**
 * Plural forms of locale files are worded per category (docs/contract.md §5, §6): a
 * gettext `msgid`/`msgid_plural` and a Rails plural hash reach the model as one segment
 * with a branch per form, the target's added categories on a `branches:` line and their
 * example numbers on a `plurals:` line (Russian `few: 2, 3, 4, 22, 23`); each gettext
 * `msgstr[N]` and each hash key then gets the text the model wrote for its category, so
 * Russian's `few` and `many` differ. The fake provider over HTTP records the prompt and
 * answers each branch with its category's name.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { errorReply, openaiReply, startFakeProvider, targetCodes, userMessage, type FakeProvider, type ReplyScript } from '../helpers/fake-provider.js';

/**
 * A translator that writes, inside each branch pair, `[category]` before the branch's
 * text: a source branch's category is given by the test (`<g1>` one, `<g2>` other), an
 * added one is read from the `branches:` line, as a model would.
 */
function categoryTranslator(sourceBranches: Record<string, string>): ReplyScript {
  return (request) => {
    const message = userMessage(request);
    const added = new Map<string, string>();
    for (const [, pair, category] of (message.branches ?? '').matchAll(/<g(\d+)> (\w+)/g)) added.set(pair!, category!);
    const word = (pair: string): string => added.get(pair) ?? sourceBranches[pair] ?? '?';
    const translate = (text: string): string => text.replace(/<g(\d+)>(.*?)<\/g\1>/g, (_all, pair: string, body: string) => `<g${pair}>[${word(pair)}] ${body}</g${pair}>`);
    return openaiReply(Object.fromEntries(targetCodes(message).map((code) => [code, message.segments.map(translate)])), { input: 10, output: 10 });
  };
}

const dir = mkdtempSync(join(tmpdir(), 'plural-prompt-'));

function msgfmtProblem(content: string): string {
  const path = join(dir, 'answer.po');
  writeFileSync(path, content);
  try {
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', path], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

describe('plural forms of locale files with an OpenAI-compatible model behind the API', () => {
  let provider: FakeProvider;
  let t: TestApp;
  let auth: string;

  before(async () => {
    provider = await startFakeProvider();
    // One call per request: these tests read what reaches the model, not how the planner
    // spreads small requests over the slots (test/translation/plan.test.ts).
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'none', MODEL_STANDARD: 'openai:fake-model', OPENAI_BASE_URL: provider.baseUrl, ENGINE_CONCURRENCY: '1' } });
    auth = (await t.key('growth')).auth;
  });
  after(async () => {
    await t.close();
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => {
    provider.requests.length = 0;
    provider.fallback(() => errorReply(500));
  });

  const translate = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: auth }, payload });

  test("gettext's msgstr[N] for Russian: each form worded for its numbers, few and many apart", async () => {
    provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const po =
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n\n' +
      '#, c-format\nmsgid "%d file was removed"\nmsgid_plural "%d files were removed"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const response = await translate({ content: po, targets: ['ru'], format: 'po', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(provider.requests[0]!);
    assert.equal(message.segments.length, 1, 'one segment holds every form');
    assert.match(message.plurals ?? '', /^ru one: 1, 21, 31, 41, 51 \| few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8 \| other: 0\.5/);
    assert.match(message.branches ?? '', /<g\d+> few, <g\d+> many on line 1/);
    const answer: string = json(response).translations.ru;
    assert.match(answer, /^msgstr\[0\] "\[one\] %d file was removed"$/m);
    assert.match(answer, /^msgstr\[1\] "\[few\] %d files were removed"$/m);
    assert.match(answer, /^msgstr\[2\] "\[many\] %d files were removed"$/m);
    assert.equal(msgfmtProblem(answer), '');
  });

  test('a German target needs no form of its own: no plurals line, and msgstr[0] is the singular', async () => {
    provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const po = '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const response = await translate({ content: po, targets: ['de'], format: 'po', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(provider.requests[0]!);
    assert.equal(message.plurals, undefined);
    const answer: string = json(response).translations.de;
    assert.match(answer, /^msgstr\[0\] "\[one\] %d file"\nmsgstr\[1\] "\[other\] %d files"$/m);
  });

  test('a Rails plural hash for Russian: few and many keys, each with its own wording', async () => {
    provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const yaml = 'en:\n  cart:\n    items:\n      one: "%{count} item"\n      other: "%{count} items"\n';
    const response = await translate({ content: yaml, targets: ['ru'], format: 'yaml', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(provider.requests[0]!);
    assert.match(message.plurals ?? '', /few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8/);
    const answer = parse(json(response).translations.ru, { version: '1.2' }) as { ru: { cart: { items: Record<string, string> } } };
    assert.deepEqual(answer.ru.cart.items, {
      one: '[one] %{count} item',
      few: '[few] %{count} items',
      many: '[many] %{count} items',
      other: '[other] %{count} items',
    });
  });
});
