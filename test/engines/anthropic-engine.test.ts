import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { EngineError } from '../../src/engines/engine.js';
import { SYSTEM_PROMPT } from '../../src/engines/prompt.js';
import {
  anthropicReply,
  errorReply,
  startFakeProvider,
  userMessage,
  type FakeProvider,
} from '../helpers/fake-provider.js';
import { DE, FR, MAX_OUTPUT_TOKENS, anthropicEngine, chunk, plain } from './engine-setup.js';

let provider: FakeProvider;
before(async () => {
  provider = await startFakeProvider();
});
after(() => provider.close());
afterEach(() => {
  provider.requests.length = 0;
});

const SEGMENTS = [
  { id: 's1', text: 'Hello <g1>world</g1>' },
  { id: 's2', text: 'Press <x1/>.' },
];

describe('anthropic engine', () => {
  test('asks for the answer through one forced tool and reads its input', async () => {
    const answer = {
      de: { s1: 'Hallo <g1>Welt</g1>', s2: 'Drücken Sie <x1/>.' },
      fr: { s1: 'Bonjour <g1>le monde</g1>', s2: 'Appuyez sur <x1/>.' },
    };
    const wire = {
      de: [answer.de.s1, answer.de.s2],
      fr: [answer.fr.s1, answer.fr.s2],
    };
    provider.reply(anthropicReply(wire, { input: 812, output: 97 }));
    const { engine } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE, FR]));

    assert.equal(engine.id, 'anthropic:claude-test');
    assert.deepEqual(plain(result.translations), answer);
    assert.deepEqual(result.usage, { inputTokens: 812, outputTokens: 97 });
    assert.equal(provider.requests.length, 1);
    const request = provider.requests[0]!;
    assert.equal(request.path, '/v1/messages');
    assert.equal(request.headers['x-api-key'], 'ak-test');
    assert.equal(request.headers['anthropic-version'], '2023-06-01');
    assert.equal(request.body.model, 'claude-test');
    assert.equal(request.body.max_tokens, MAX_OUTPUT_TOKENS);
    assert.deepEqual(request.body.system, [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }]);
    assert.equal(request.body.messages.length, 1);
    // The segments are the cacheable prefix; the targets follow in a block of their own.
    const [shared, rest] = request.body.messages[0].content;
    assert.deepEqual(shared.cache_control, { type: 'ephemeral' });
    assert.match(shared.text, /^source: English \(en\)\nformat: markdown\nsegments \(2\):\n/);
    assert.deepEqual(rest, { type: 'text', text: 'targets: German (de), French (fr)' });
    assert.deepEqual(userMessage(request).segments, ['Hello <g1>world</g1>', 'Press <x1/>.']);
    assert.deepEqual(request.body.tool_choice, { type: 'tool', name: 'submit_translations' });
    assert.equal(request.body.tools.length, 1);
    const group = request.body.tools[0].input_schema.properties.translations.items;
    assert.deepEqual(group.properties.lang.enum, ['de', 'fr']);
    assert.deepEqual(group.properties.segments, { type: 'array', items: { type: 'string' } });
  });

  test('accepts a base URL without /v1, as the official SDK spells it', async () => {
    provider.reply(anthropicReply({ de: ['Hallo <g1>Welt</g1>', 'Drücken Sie <x1/>.'] }, { input: 1, output: 1 }));
    const { engine } = anthropicEngine(provider, { baseUrl: provider.baseUrl.replace(/\/v1$/, '') });

    await engine.translate(chunk(SEGMENTS, [DE]));

    assert.equal(provider.requests[0]!.path, '/v1/messages');
  });

  test('parses an answer given as fenced text instead of the tool', async () => {
    const text = 'Here you go:\n```json\n{"translations":[{"lang":"de","segments":["Hallo <g1>Welt</g1>","Drücken Sie <x1/>."]}]}\n```';
    provider.reply(anthropicReply(text, { input: 10, output: 10 }, 'end_turn'));
    const { engine } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE]));

    assert.equal(result.translations.get('de')?.get('s2'), 'Drücken Sie <x1/>.');
    assert.equal(provider.requests.length, 1);
  });

  test('cached prompt tokens count as input tokens and are reported apart', async () => {
    const reply = anthropicReply({ de: ['Hallo <g1>Welt</g1>', 'Drücken Sie <x1/>.'] }, { input: 10, output: 5 }) as {
      json: { usage: Record<string, number> };
    };
    reply.json.usage.cache_read_input_tokens = 700;
    reply.json.usage.cache_creation_input_tokens = 30;
    provider.reply(reply as never);
    const { engine } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE]));

    assert.deepEqual(result.usage, { inputTokens: 740, outputTokens: 5, cachedInputTokens: 700, cacheWriteTokens: 30 });
  });

  test('529 overloaded and 429 are retried and usage sums the repair round', async () => {
    provider.reply(
      errorReply(529),
      errorReply(429, { 'retry-after': '2' }),
      anthropicReply({ de: ['Hallo <g1>Welt</g1>', 'Drücken Sie.'] }, { input: 500, output: 40 }),
      anthropicReply({ de: ['Drücken Sie <x1/>.'] }, { input: 300, output: 20 }),
    );
    const { engine, sleeps } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE]));

    assert.deepEqual(sleeps, [250, 2000]);
    assert.deepEqual(plain(result.translations), { de: { s1: 'Hallo <g1>Welt</g1>', s2: 'Drücken Sie <x1/>.' } });
    assert.deepEqual(result.usage, { inputTokens: 800, outputTokens: 60 });
    const repair = userMessage(provider.requests[3]!);
    assert.deepEqual(repair.segments, ['Press <x1/>.']);
    assert.deepEqual(repair.fix, [{ lang: 'de', line: 1, problem: 'missing token <x1/>', previous: 'Drücken Sie.' }]);
  });

  test('a tool answer with the wrong number of strings is repaired for that target', async () => {
    provider.reply(
      anthropicReply({ de: ['Hallo <g1>Welt</g1> Drücken Sie <x1/>.'], fr: ['Bonjour <g1>le monde</g1>', 'Appuyez sur <x1/>.'] }, { input: 500, output: 40 }),
      anthropicReply({ de: ['Hallo <g1>Welt</g1>', 'Drücken Sie <x1/>.'] }, { input: 300, output: 20 }),
    );
    const { engine } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE, FR]));

    assert.equal(result.translations.get('de')?.get('s2'), 'Drücken Sie <x1/>.');
    assert.equal(result.translations.get('fr')?.get('s2'), 'Appuyez sur <x1/>.');
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.targets, ['German (de)']);
    assert.deepEqual(repair.fix, [{ lang: 'de', problem: 'expected 2 translations, got 1' }]);
    assert.deepEqual(result.usage, { inputTokens: 800, outputTokens: 60 });
  });

  test('a one-target request gets a tool whose input is keyed by the code, and reads it', async () => {
    provider.reply(anthropicReply({ de: ['Hallo <g1>Welt</g1>', 'Drücken Sie <x1/>.'] }, { input: 10, output: 10 }, 'tool_use', true));
    const { engine } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Hallo <g1>Welt</g1>', s2: 'Drücken Sie <x1/>.' } });
    assert.deepEqual(provider.requests[0]!.body.tools[0].input_schema, {
      type: 'object',
      additionalProperties: false,
      required: ['de'],
      properties: { de: { type: 'array', items: { type: 'string' } } },
    });
  });

  test('stop_reason max_tokens distrusts the last entry, even a complete one, and asks for it again', async () => {
    provider.reply(
      anthropicReply({ de: ['Hallo <g1>Welt</g1>', 'Drücken Sie <x1/>.'] }, { input: 10, output: 4000 }, 'max_tokens'),
      anthropicReply({ de: ['Drücken Sie bitte <x1/>.'] }, { input: 10, output: 10 }),
    );
    const { engine } = anthropicEngine(provider);

    const result = await engine.translate(chunk(SEGMENTS, [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Hallo <g1>Welt</g1>', s2: 'Drücken Sie bitte <x1/>.' } });
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.segments, ['Press <x1/>.']);
    assert.deepEqual(repair.fix, [{ lang: 'de', line: 1, problem: 'missing from the answer' }]);
  });

  test('401 fails fast without retry', async () => {
    provider.reply(errorReply(401));
    const { engine, sleeps } = anthropicEngine(provider);

    await assert.rejects(engine.translate(chunk(SEGMENTS, [DE])), (error: unknown) => {
      assert.ok(error instanceof EngineError);
      assert.equal(error.retryable, false);
      assert.equal(error.message, "the model provider refused the service's credentials");
      return true;
    });
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });
});
