/**
 * A plural message too large for one balanced call goes to the model in parts (issue 36,
 * docs/decisions/0104-plural-message-in-parts.md): the real app over HTTP with an
 * OpenAI-compatible fake provider that records every call. Arabic's six forms of one ICU
 * message are asked for in two calls on two slots, each call for a share of the forms
 * with the words around the message; the answer is the one message with every form once,
 * in the contract's order, judged by @formatjs/icu-messageformat-parser. A part answered
 * without one of its forms is repaired alone, like any segment.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { openaiReply, targetCodes, userMessage, type RecordedRequest, type ReplyScript } from '../helpers/fake-provider.js';
import { icuPlurals } from '../helpers/icu.js';

const SOURCE = 'You have {count, plural, =0 {no messages} one {# message} other {# messages from the team}} waiting in your inbox.';
/** Arabic's forms of it: the source's exact `=0`, then CLDR's six categories in the contract's order. */
const ARABIC = ['=0', 'one', 'zero', 'two', 'few', 'many', 'other'];

/** The pairs a call's `branches:` line names, with their categories. */
function addedBranches(line: string | undefined): { pair: number; selector: string }[] {
  return [...(line ?? '').matchAll(/<g(\d+)> ([^,\s;]+)/g)].map((m) => ({ pair: Number(m[1]), selector: m[2]! }));
}

/** `[ar] text` per line; with `dropFirstAdded`, the first answer to a call that names added forms leaves its first one out. */
function arabicTranslator(dropFirstAdded: boolean): ReplyScript {
  let dropped = false;
  return (request) => {
    const message = userMessage(request);
    const translations = Object.fromEntries(
      targetCodes(message).map((code) => [
        code,
        message.segments.map((text) => {
          const answer = `[${code}] ${text}`;
          const first = addedBranches(message.branches)[0];
          if (!dropFirstAdded || dropped || first === undefined || message.fix !== undefined) return answer;
          dropped = true;
          return answer.replace(new RegExp(`<g${first.pair}>.*?</g${first.pair}>`), '');
        }),
      ]),
    );
    return openaiReply(translations, { input: 100, output: 40 });
  };
}

/** The `<gN>` pairs of a text. */
const pairsOf = (text: string): number[] => [...text.matchAll(/<g(\d+)>/g)].map((m) => Number(m[1]));

describe('a plural message in parts, with an OpenAI-compatible model behind the API', () => {
  // Two slots: the message's answer is the whole request, so two halves take half the time.
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '2' } });

  const translate = (payload: object) =>
    app.t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: app.auth }, payload: Object.assign({ memory: false }, payload) });

  test('Arabic’s six forms are asked for in two calls and come back as one message, every form once, in order', async () => {
    app.provider.fallback(arabicTranslator(false));
    const response = await translate({ content: SOURCE, targets: ['ar'], source: 'en', format: 'plain' });
    assert.equal(response.statusCode, 200, response.body);
    const answer: string = json(response).translations.ar;
    assert.deepEqual(icuPlurals(answer)[0]!.keys, ARABIC);
    assert.equal(
      answer,
      '[ar] You have {count, plural, =0 {no messages} one {# message} zero {# messages from the team} two {# messages from the team} few {# messages from the team} many {# messages from the team} other {# messages from the team}} waiting in your inbox.',
    );

    const calls = app.provider.requests.map(userMessage);
    assert.equal(calls.length, 2, 'one call per part');
    const lines = calls.map((call) => {
      assert.equal(call.segments.length, 1);
      return call.segments[0]!;
    });
    for (const line of lines) assert.match(line, /^You have <x\d+\/>.*<x\d+\/> waiting in your inbox\.$/, 'each part has the words around the message');
    const [first, second] = lines.map(pairsOf);
    assert.ok(first!.length >= 2 && second!.length >= 2, `${first} and ${second}: the forms shared out`);
    assert.equal(new Set([...first!, ...second!]).size, ARABIC.length, 'every form in exactly one part');
    // Each call is told the categories it is to word, and only those.
    const added = calls.map((call) => addedBranches(call.branches));
    assert.deepEqual(added.flat().map((branch) => branch.selector).sort(), ['few', 'many', 'two', 'zero']);
    added.forEach((branches, i) => branches.forEach(({ pair }) => assert.ok(pairsOf(lines[i]!).includes(pair))));
    for (const call of calls.filter((c) => c.branches !== undefined)) assert.match(call.plurals!, /^ar zero: 0 \| one: 1 \| two: 2 \| few: 3/);
  });

  test('a part answered without one of its forms is repaired alone, and the message is whole', async () => {
    app.provider.fallback(arabicTranslator(true));
    const response = await translate({ content: SOURCE, targets: ['ar'], source: 'en', format: 'plain' });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(icuPlurals(json(response).translations.ar)[0]!.keys, ARABIC);

    const calls: RecordedRequest[] = app.provider.requests;
    const messages = calls.map(userMessage);
    assert.equal(messages.length, 3, 'two parts and one repair');
    const repair = messages.find((m) => m.fix !== undefined)!;
    assert.match(repair.fix![0]!.problem, /plural message needs the target's forms: missing <g\d+> \((zero|two|few|many)\)/);
    const broken = messages.find((m) => m.fix === undefined && m.segments[0] === repair.segments[0]);
    assert.ok(broken, 'the repair resends the broken part, not the whole message');
    const other = messages.find((m) => m !== broken && m !== repair)!;
    assert.notEqual(other.segments[0], repair.segments[0]);
  });
});
