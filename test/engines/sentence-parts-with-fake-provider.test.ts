/**
 * A string of several sentences that would decide a small request's time goes to the
 * model as sentences (docs/decisions/0122-long-string-in-sentence-parts.md): the real app
 * over HTTP with an OpenAI-compatible fake provider that records every call and answers
 * each line pseudo-localized (marks removed give the line back). Each sentence is asked
 * for with the whole string as its note; the answer is the parts joined with the source's
 * whitespace, byte for byte; markup across a sentence end is never cut; memory keeps the
 * whole string's translation, never a sentence's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pseudoTranslate } from '../../src/engines/pseudo.js';
import { json } from '../helpers/app.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { keyedRequest, openaiReply, targetCodes, userMessage, type ReplyScript } from '../helpers/fake-provider.js';
import { unpseudo } from '../formats/helpers.js';

const FIVE = {
  save: 'Save changes',
  cancel: 'Discard your changes',
  saved: 'Your changes were saved.',
  offline: 'You are offline. Changes are kept on this device.',
  retry: 'Something went wrong. Please try again.',
};

/** Every line of every call pseudo-localized, in the shape the call's schema asks for. */
const pseudoModel: ReplyScript = (request) => {
  const message = userMessage(request);
  const translations = Object.fromEntries(targetCodes(message).map((code) => [code, message.segments.map((text) => pseudoTranslate(text, false))]));
  return openaiReply(translations, { input: 100, output: 10 }, 'stop', keyedRequest(request));
};

describe('a string of sentences in parts, with an OpenAI-compatible model behind the API', () => {
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '8' }, fallback: pseudoModel });

  const translate = (payload: object) =>
    app.t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: app.auth }, payload: Object.assign({ source: 'en', format: 'json', targets: ['de'] }, payload) });

  test('the two strings of two sentences are asked for sentence by sentence, each with its whole string, and come back whole', async () => {
    const content = JSON.stringify(FIVE, null, 2);
    const response = await translate({ content, memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const answer: string = json(response).translations.de;
    const values = JSON.parse(answer) as Record<string, string>;
    for (const [key, source] of Object.entries(FIVE)) {
      assert.equal(values[key], pseudoTranslate(source, false), key);
      assert.equal(unpseudo(values[key]!), source, `${key}: marks removed give the source back`);
    }
    assert.equal(unpseudo(answer), content, 'the whole document, byte for byte');

    const calls = app.provider.requests.map(userMessage);
    const lines = calls.flatMap((call) => call.segments);
    for (const whole of [FIVE.offline, FIVE.retry]) {
      assert.ok(!lines.includes(whole), `${whole} is not sent whole`);
      const [first, second] = whole.split(/(?<=\.) /);
      for (const [index, sentence] of [first!, second!].entries()) {
        const call = calls.find((c) => c.segments.includes(sentence));
        assert.ok(call, `${sentence} is sent`);
        assert.equal(call.segments.length, 1, `${sentence} has a call of its own`);
        assert.equal(call.notes?.['1'], `sentence ${index + 1} of 2 in: ${whole}`);
      }
    }
  });

  test('the estimate plans the sentences as /translate does: the calls it names are the calls made', async () => {
    const payload = { content: JSON.stringify(FIVE, null, 2), source: 'en', format: 'json', targets: ['de'], memory: false };
    const estimate = await app.t.app.inject({ method: 'POST', url: '/v1/translate/estimate', headers: { authorization: app.auth }, payload });
    assert.equal(estimate.statusCode, 200, estimate.body);
    const response = await translate(payload);
    assert.equal(response.statusCode, 200, response.body);
    const made = app.provider.requests.length;
    assert.ok(made > 5, `the five strings went in sentences (${made} calls)`);
    assert.equal(json(estimate).model_calls, made);
  });

  test('a string whose markup spans a sentence end is sent whole', async () => {
    const spanning = 'Reload <b>the page now. Please</b> wait until every file on this device has been synced again.';
    const content = JSON.stringify({ save: 'Save', reload: spanning }, null, 2);
    const response = await translate({ content, memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(unpseudo(JSON.parse(json(response).translations.de).reload), spanning);
    const calls = app.provider.requests.map(userMessage);
    assert.ok(calls.some((call) => call.segments.some((line) => /^Reload <g1>the page now\. Please<\/g1> wait until/.test(line))), 'sent whole');
    assert.ok(calls.every((call) => !JSON.stringify(call.notes ?? {}).includes(' in: ')), 'no part');
  });

  test('streamed into two targets, the first has its sentences sent apart, the second its strings whole; both join back', async () => {
    const content = JSON.stringify(FIVE, null, 2);
    const response = await app.t.app.inject({
      method: 'POST',
      url: '/v1/translate',
      headers: { authorization: app.auth, accept: 'text/event-stream' },
      payload: { content, source: 'en', format: 'json', targets: ['de', 'fr'], memory: false },
    });
    assert.equal(response.statusCode, 200, response.body);
    const texts = new Map<string, string>();
    for (const block of response.body.split('\n\n')) {
      if (!block.includes('event: translation')) continue;
      const data = JSON.parse(block.split('\n').find((line) => line.startsWith('data: '))!.slice(6)) as { target: string; text: string };
      texts.set(data.target, data.text);
    }
    assert.deepEqual([...texts.keys()].sort(), ['de', 'fr']);
    for (const text of texts.values()) assert.equal(unpseudo(text), content);

    const calls = app.provider.requests.map(userMessage);
    const targetsOf = (line: string) => calls.filter((call) => call.segments.includes(line)).flatMap((call) => targetCodes(call));
    assert.deepEqual(targetsOf('You are offline.'), ['de']);
    assert.deepEqual(targetsOf('Changes are kept on this device.'), ['de']);
    assert.deepEqual(targetsOf(FIVE.offline), ['fr']);
  });

  test('memory keeps the whole string’s translation, not its sentences', async () => {
    const content = JSON.stringify({ offline: FIVE.offline, retry: FIVE.retry, save: FIVE.save }, null, 2);
    const first = await translate({ content });
    assert.equal(first.statusCode, 200, first.body);
    const sent = app.provider.requests.length;
    assert.ok(app.provider.requests.map(userMessage).some((call) => call.segments.includes('You are offline.')), 'the first request sends sentences');

    const again = await translate({ content });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(app.provider.requests.length, sent, 'the repeat is answered from memory');
    // Had a sentence's answer been saved under the string's key, the repeat would read it.
    assert.equal(json(again).translations.de, json(first).translations.de);
    const values = JSON.parse(json(again).translations.de) as Record<string, string>;
    assert.equal(unpseudo(values.offline!), FIVE.offline);
    assert.equal(unpseudo(values.retry!), FIVE.retry);
  });
});
