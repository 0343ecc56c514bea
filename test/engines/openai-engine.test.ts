import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { EngineError } from '../../src/engines/engine.js';
import { SYSTEM_PROMPT } from '../../src/engines/prompt.js';
import { DEFAULT_RETRY_POLICY } from '../../src/engines/retry.js';
import {
  errorReply,
  openaiReply,
  startFakeProvider,
  userMessage,
  type FakeProvider,
} from '../helpers/fake-provider.js';
import { AR, DE, FR, MAX_OUTPUT_TOKENS, chunk, openaiEngine, plain } from './engine-setup.js';

let provider: FakeProvider;
before(async () => {
  provider = await startFakeProvider();
});
after(() => provider.close());
afterEach(() => {
  provider.requests.length = 0;
});

const HELLO = [{ id: 's1', text: 'Hello <g1>world</g1>' }];

describe('openai engine: answers', () => {
  test('translates one segment with one call and sends the prompt, schema and limits on the wire', async () => {
    provider.reply(openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 321, output: 12 }));
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Hallo <g1>Welt</g1>' } });
    assert.deepEqual(result.usage, { inputTokens: 321, outputTokens: 12 });
    assert.equal(provider.requests.length, 1);
    const request = provider.requests[0]!;
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-test');
    assert.equal(request.body.model, 'gpt-test');
    assert.equal(request.body.temperature, 0);
    assert.equal(request.body.max_tokens, MAX_OUTPUT_TOKENS);
    assert.equal(request.body.stream, undefined);
    assert.deepEqual(request.body.messages[0], { role: 'system', content: SYSTEM_PROMPT });
    assert.deepEqual(userMessage(request), {
      source: 'English (en)',
      targets: ['German (de)'],
      format: 'markdown',
      segments: ['Hello <g1>world</g1>'],
    });
    assert.equal(
      request.body.messages[1].content,
      'source: English (en)\nformat: markdown\nsegments (1):\nHello <g1>world</g1>\ntargets: German (de)',
    );
    const format = request.body.response_format;
    assert.equal(format.type, 'json_schema');
    assert.equal(format.json_schema.strict, true);
    // One target: the answer is keyed by its code, a closed object as strict mode asks.
    assert.deepEqual(format.json_schema.schema, {
      type: 'object',
      additionalProperties: false,
      required: ['de'],
      properties: { de: { type: 'array', items: { type: 'string' } } },
    });
  });

  test('translates many segments into many targets in a single call, one unnumbered line per segment', async () => {
    const segments = [
      { id: 'title', text: 'Getting started', ctx: 'h1', singleLine: true },
      { id: 'install', text: 'Run <x1/> to install\nin "C:\\tools".' },
      { id: 'guide', text: 'Read the <g1>guide</g1>.' },
    ];
    const wire = {
      de: ['Erste Schritte', 'Führen Sie <x1/> aus\nin "C:\\tools".', 'Lesen Sie die <g1>Anleitung</g1>.'],
      fr: ['Premiers pas', 'Lancez <x1/>\ndans "C:\\tools".', 'Lisez le <g1>guide</g1>.'],
      ar: ['البدء', 'شغّل <x1/>\nفي "C:\\tools".', 'اقرأ <g1>الدليل</g1>.'],
    };
    provider.reply(openaiReply(wire, { input: 900, output: 150 }));
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(segments, [DE, FR, AR]));

    assert.deepEqual(plain(result.translations), {
      de: { title: wire.de[0], install: wire.de[1], guide: wire.de[2] },
      fr: { title: wire.fr[0], install: wire.fr[1], guide: wire.fr[2] },
      ar: { title: wire.ar[0], install: wire.ar[1], guide: wire.ar[2] },
    });
    assert.equal(provider.requests.length, 1);
    const content: string = provider.requests[0]!.body.messages[1].content;
    assert.equal(
      content.split('segments (3):\n')[1]!.split('\ntargets: ')[0],
      ['Getting started', 'Run <x1/> to install\\nin "C:\\\\tools".', 'Read the <g1>guide</g1>.'].join('\n'),
    );
    const message = userMessage(provider.requests[0]!);
    assert.deepEqual(message.targets, ['German (de)', 'French (fr)', 'Arabic (ar)']);
    assert.deepEqual(message.segments, segments.map((segment) => segment.text));
    const group = provider.requests[0]!.body.response_format.json_schema.schema.properties.translations.items;
    assert.deepEqual(group.properties.lang.enum, ['de', 'fr', 'ar']);
    assert.deepEqual(group.properties.segments, { type: 'array', items: { type: 'string' } });
  });

  test('every call of a one-target request, repairs included, asks for the same keyed schema', async () => {
    provider.reply(
      openaiReply('{"de":["Öffne <x1/> jetzt.","Alles speichern"]}', { input: 400, output: 20 }),
      openaiReply('{"de":["<g1>Alles</g1> speichern"]}', { input: 200, output: 10 }),
    );
    const { engine } = openaiEngine(provider);

    const two = [
      { id: 's1', text: 'Open <x1/> now.' },
      { id: 's2', text: 'Save <g1>all</g1>' },
    ];
    const result = await engine.translate(chunk(two, [DE], { requestTargets: [DE] }));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Öffne <x1/> jetzt.', s2: '<g1>Alles</g1> speichern' } });
    const [first, repair] = provider.requests.map((request) => request.body.response_format.json_schema.schema);
    assert.deepEqual(first, repair);
    assert.deepEqual(first.required, ['de']);
  });

  test('a call carrying one target of a request of several asks for the grouped schema of all of them', async () => {
    provider.reply(openaiReply({ fr: ['Bonjour <g1>le monde</g1>'] }, { input: 1, output: 1 }, 'stop', false));
    const { engine } = openaiEngine(provider);

    await engine.translate(chunk(HELLO, [FR], { requestTargets: [DE, FR] }));

    const group = provider.requests[0]!.body.response_format.json_schema.schema.properties.translations.items;
    assert.deepEqual(group.properties.lang.enum, ['de', 'fr']);
  });

  test('without a source language the message leaves it out so the model identifies it', async () => {
    provider.reply(openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 1, output: 1 }));
    const { engine } = openaiEngine(provider);
    const { source: _unused, ...input } = chunk(HELLO, [DE]);

    await engine.translate(input);

    assert.equal('source' in userMessage(provider.requests[0]!), false);
    assert.match(SYSTEM_PROMPT, /identify the language yourself/);
  });

  test('reads the cached prompt tokens OpenAI reports and keeps them inside the input tokens', async () => {
    const reply = openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 1500, output: 12 }) as { json: { usage: Record<string, unknown> } };
    reply.json.usage.prompt_tokens_details = { cached_tokens: 1280 };
    provider.reply(reply as never);
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.deepEqual(result.usage, { inputTokens: 1500, outputTokens: 12, cachedInputTokens: 1280 });
    assert.equal(result.calls, 1);
  });

  test('reads JSON wrapped in code fences after a preamble without another call', async () => {
    const fenced = 'Sure! Here are the translations:\n```json\n{"translations":[{"lang":"de","segments":["Hallo <g1>Welt</g1>"]}]}\n```\nEnjoy.';
    provider.reply(openaiReply(fenced, { input: 50, output: 40 }));
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Hallo <g1>Welt</g1>' } });
    assert.equal(provider.requests.length, 1);
  });

  test('repairs trailing commas and look-alike tokens locally without another call', async () => {
    const sloppy = '{"translations":[{"lang":"de","segments":["Hallo < G1 >Welt＜／g1＞ <X1>",],},],}';
    provider.reply(openaiReply(sloppy, { input: 50, output: 40 }));
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk([{ id: 's1', text: 'Hello <g1>world</g1> <x1/>' }], [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Hallo <g1>Welt</g1> <x1/>' } });
    assert.equal(provider.requests.length, 1);
  });

  test('sends json_object or no response_format when configured for servers without JSON schema', async () => {
    for (const responseFormat of ['json_object', 'none'] as const) {
      provider.requests.length = 0;
      provider.reply(openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 1, output: 1 }));
      const { engine } = openaiEngine(provider, { responseFormat });
      await engine.translate(chunk(HELLO, [DE]));
      const expected = responseFormat === 'json_object' ? { type: 'json_object' } : undefined;
      assert.deepEqual(provider.requests[0]!.body.response_format, expected);
    }
  });
});

describe('openai engine: repair of bad answers', () => {
  const TWO = [
    { id: 's1', text: 'Open <x1/> now.' },
    { id: 's2', text: 'Save <g1>all</g1>' },
  ];
  const THREE = [
    { id: 'open', text: 'Open <x1/> now.' },
    { id: 'save', text: 'Save <g1>all</g1>' },
    { id: 'quit', text: 'Quit <x1/>' },
  ];

  test('a missing target is asked for alone with a whole-target fix entry, and the answers are merged', async () => {
    provider.reply(
      openaiReply({ de: ['Öffne <x1/> jetzt.', '<g1>Alles</g1> speichern'] }, { input: 400, output: 60 }),
      openaiReply({ fr: ['Ouvrez <x1/> maintenant.', 'Tout <g1>enregistrer</g1>'] }, { input: 300, output: 50 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(TWO, [DE, FR]));

    assert.deepEqual(plain(result.translations), {
      de: { s1: 'Öffne <x1/> jetzt.', s2: '<g1>Alles</g1> speichern' },
      fr: { s1: 'Ouvrez <x1/> maintenant.', s2: 'Tout <g1>enregistrer</g1>' },
    });
    assert.deepEqual(result.usage, { inputTokens: 700, outputTokens: 110 });
    assert.equal(provider.requests.length, 2);
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.targets, ['French (fr)']);
    assert.deepEqual(repair.segments, ['Open <x1/> now.', 'Save <g1>all</g1>']);
    assert.deepEqual(repair.fix, [{ lang: 'fr', problem: 'missing from the answer' }]);
    // The schema stays the request's (every target), so every call shares its prefix.
    assert.deepEqual(
      provider.requests[1]!.body.response_format.json_schema.schema.properties.translations.items.properties.lang.enum,
      ['de', 'fr'],
    );
  });

  test('an array of the wrong length is not accepted at all and is repaired with a whole-target fix entry', async () => {
    provider.reply(
      // de: "Save all" split into two entries, so every later entry is one line off
      openaiReply(
        {
          de: ['Öffne <x1/> jetzt.', 'Alles', '<g1>speichern</g1>', 'Beende <x1/>'],
          fr: ['Ouvrez <x1/> maintenant.', 'Tout <g1>enregistrer</g1>', 'Quittez <x1/>'],
        },
        { input: 400, output: 60 },
      ),
      openaiReply({ de: ['Jetzt <x1/> öffnen.', '<g1>Alles</g1> speichern', '<x1/> beenden'] }, { input: 300, output: 40 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(THREE, [DE, FR]));

    assert.deepEqual(plain(result.translations), {
      // the first entry would have passed every check, but its target's alignment was unknown
      de: { open: 'Jetzt <x1/> öffnen.', save: '<g1>Alles</g1> speichern', quit: '<x1/> beenden' },
      fr: { open: 'Ouvrez <x1/> maintenant.', save: 'Tout <g1>enregistrer</g1>', quit: 'Quittez <x1/>' },
    });
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.targets, ['German (de)']);
    assert.deepEqual(repair.segments, THREE.map((segment) => segment.text));
    assert.deepEqual(repair.fix, [{ lang: 'de', problem: 'expected 3 translations, got 4' }]);
    assert.deepEqual(result.usage, { inputTokens: 700, outputTokens: 100 });
  });

  test('a repair message carries only the pending lines, and its fix entries point at lines of that message', async () => {
    provider.reply(
      openaiReply(
        {
          de: ['Öffne jetzt.', '<g1>Alles</g1> speichern', ' '],
          fr: ['Ouvrez <x1/> maintenant.', 'Tout <g1>enregistrer</g1>', 'Quittez <x1/>'],
        },
        { input: 400, output: 60 },
      ),
      openaiReply({ de: ['Öffne <x1/> jetzt.', '<x1/> beenden'] }, { input: 200, output: 30 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(THREE, [DE, FR]));

    assert.deepEqual(plain(result.translations).de, { open: 'Öffne <x1/> jetzt.', save: '<g1>Alles</g1> speichern', quit: '<x1/> beenden' });
    assert.equal(result.translations.get('fr')?.get('quit'), 'Quittez <x1/>');
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.targets, ['German (de)']);
    assert.deepEqual(repair.segments, ['Open <x1/> now.', 'Quit <x1/>']);
    assert.match(provider.requests[1]!.body.messages[1].content, /\nsegments \(2\):\nOpen <x1\/> now\.\nQuit <x1\/>\ntargets: German \(de\)\nfix: /);
    assert.deepEqual(repair.fix, [
      { lang: 'de', line: 1, problem: 'missing token <x1/>', previous: 'Öffne jetzt.' },
      // the third segment is the second line of the repair message
      { lang: 'de', line: 2, problem: 'the translation is empty', previous: ' ' },
    ]);
    assert.deepEqual(result.usage, { inputTokens: 600, outputTokens: 90 });
  });

  test('a repair for several targets is rectangular; answers for pairs already accepted are ignored', async () => {
    provider.reply(
      openaiReply(
        {
          de: ['Öffne jetzt.', '<g1>Alles</g1> speichern'],
          fr: ['Ouvrez <x1/> maintenant.', 'Tout enregistrer'],
        },
        { input: 400, output: 60 },
      ),
      openaiReply(
        {
          de: ['Öffne <x1/> jetzt.', 'ANDERS <g1>speichern</g1>'],
          // a broken answer for a pair accepted in the first round costs nothing more
          fr: ['kaputt', 'Tout <g1>enregistrer</g1>'],
        },
        { input: 300, output: 50 },
      ),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(TWO, [DE, FR]));

    assert.deepEqual(plain(result.translations), {
      de: { s1: 'Öffne <x1/> jetzt.', s2: '<g1>Alles</g1> speichern' },
      fr: { s1: 'Ouvrez <x1/> maintenant.', s2: 'Tout <g1>enregistrer</g1>' },
    });
    assert.equal(provider.requests.length, 2);
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.targets, ['German (de)', 'French (fr)']);
    assert.deepEqual(repair.segments, ['Open <x1/> now.', 'Save <g1>all</g1>']);
    assert.deepEqual(repair.fix, [
      { lang: 'de', line: 1, problem: 'missing token <x1/>', previous: 'Öffne jetzt.' },
      { lang: 'fr', line: 2, problem: 'missing token <g1>', previous: 'Tout enregistrer' },
    ]);
  });

  test('a pair closed in the wrong order or a line break in a single-line segment is repaired', async () => {
    const segments = [
      { id: 's1', text: '<g1><g2>Bold link</g2></g1>' },
      { id: 's2', text: 'A heading', singleLine: true },
    ];
    provider.reply(
      openaiReply({ de: ['<g1><g2>Fetter Link</g1></g2>', 'Eine\nÜberschrift'] }, { input: 10, output: 10 }),
      openaiReply({ de: ['<g1><g2>Fetter Link</g2></g1>', 'Eine Überschrift'] }, { input: 10, output: 10 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(segments, [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: '<g1><g2>Fetter Link</g2></g1>', s2: 'Eine Überschrift' } });
    assert.deepEqual(
      userMessage(provider.requests[1]!).fix?.map((f) => [f.line, f.problem]),
      [
        [1, 'token </g1> is not properly nested'],
        [2, 'must stay on one line, without line breaks'],
      ],
    );
  });

  test('invalid JSON is repaired with a follow-up that says so', async () => {
    provider.reply(
      openaiReply('I cannot do that.', { input: 100, output: 5 }),
      openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 120, output: 20 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.equal(result.translations.get('de')?.get('s1'), 'Hallo <g1>Welt</g1>');
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.fix, [{ problem: 'the answer was not valid JSON in the required shape' }]);
    assert.deepEqual(repair.segments, ['Hello <g1>world</g1>']);
    assert.deepEqual(result.usage, { inputTokens: 220, outputTokens: 25 });
  });

  test('after a failed repair the call is made once more for what is still missing, and counted', async () => {
    provider.reply(
      openaiReply({ de: ['Öffne <x1/> jetzt.', 'Alles speichern'] }, { input: 400, output: 60 }),
      openaiReply({ de: ['Alles speichern'] }, { input: 200, output: 30 }),
      openaiReply({ de: ['<g1>Alles</g1> speichern'] }, { input: 150, output: 20 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(TWO, [DE]));

    assert.deepEqual(plain(result.translations), { de: { s1: 'Öffne <x1/> jetzt.', s2: '<g1>Alles</g1> speichern' } });
    assert.equal(provider.requests.length, 3);
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.segments, ['Save <g1>all</g1>']);
    assert.deepEqual(repair.fix, [{ lang: 'de', line: 1, problem: 'missing token <g1>', previous: 'Alles speichern' }]);
    const retried = userMessage(provider.requests[2]!);
    assert.deepEqual(retried.segments, ['Save <g1>all</g1>']);
    assert.equal(retried.fix, undefined);
    assert.deepEqual(result.usage, { inputTokens: 750, outputTokens: 110 });
  });

  test('gives up after call, repair and one more call with a plain message a job may retry', async () => {
    provider.reply(
      openaiReply('not json', { input: 1, output: 1 }),
      openaiReply('still not json', { input: 1, output: 1 }),
      openaiReply('```json\n{"oops": \n```', { input: 1, output: 1 }),
    );
    const { engine } = openaiEngine(provider);

    await assert.rejects(engine.translate(chunk(HELLO, [DE])), (error: unknown) => {
      assert.ok(error instanceof EngineError);
      assert.equal(error.retryable, true);
      assert.equal(error.message, 'the model returned invalid JSON');
      return true;
    });
    assert.equal(provider.requests.length, 3);
  });

  test('gives up with a message about placeholders when tokens stay broken', async () => {
    provider.fallback(() => openaiReply({ de: ['Hallo Welt'] }, { input: 1, output: 1 }));
    const { engine } = openaiEngine(provider);
    try {
      await assert.rejects(engine.translate(chunk(HELLO, [DE])), {
        name: 'EngineError',
        message: "the model's answer damaged the document's formatting placeholders",
      });
      assert.equal(provider.requests.length, 3);
    } finally {
      provider.fallback(() => errorReply(500));
    }
  });

  test('gives up with a message about left-out or merged segments when the count stays wrong', async () => {
    provider.fallback(() => openaiReply({ de: ['Öffne <x1/> jetzt. <g1>Alles</g1> speichern'] }, { input: 1, output: 1 }));
    const { engine } = openaiEngine(provider);
    try {
      await assert.rejects(engine.translate(chunk(TWO, [DE])), (error: unknown) => {
        assert.ok(error instanceof EngineError);
        assert.equal(error.retryable, true);
        assert.equal(error.message, 'the model left out or merged some segments');
        return true;
      });
      assert.equal(provider.requests.length, 3);
      assert.deepEqual(userMessage(provider.requests[1]!).fix, [{ lang: 'de', problem: 'expected 2 translations, got 1' }]);
    } finally {
      provider.fallback(() => errorReply(500));
    }
  });

  test('a truncated answer keeps the complete targets and re-requests the cut-off one', async () => {
    const cut = '{"translations":[{"lang":"de","segments":["Öffne <x1/> jetzt.","<g1>Alles</g1> speichern"]},{"lang":"fr","segments":["Ouvrez <x1/> maint';
    provider.reply(
      openaiReply(cut, { input: 400, output: 4000 }, 'length'),
      openaiReply({ fr: ['Ouvrez <x1/> maintenant.', 'Tout <g1>enregistrer</g1>'] }, { input: 300, output: 50 }),
    );
    const { engine } = openaiEngine(provider);

    const result = await engine.translate(chunk(TWO, [DE, FR]));

    assert.equal(result.translations.get('fr')?.get('s1'), 'Ouvrez <x1/> maintenant.');
    assert.equal(result.translations.get('de')?.get('s2'), '<g1>Alles</g1> speichern');
    const repair = userMessage(provider.requests[1]!);
    assert.deepEqual(repair.targets, ['French (fr)']);
    assert.deepEqual(repair.fix?.map((f) => `${f.lang}/${f.line}: ${f.problem}`), [
      'fr/1: missing from the answer',
      'fr/2: missing from the answer',
    ]);
  });

  for (const [shape, cut] of [
    ['grouped', '{"translations":[{"lang":"de","segments":["Öffne <x1/> jetzt.","<g1>Alles</g1> speichern","<x1/> beenden","Hil'],
    ['keyed', '{"de":["Öffne <x1/> jetzt.","<g1>Alles</g1> speichern","<x1/> beenden","Hil'],
  ] as const) {
    test(`a truncated ${shape} answer keeps its aligned prefix minus the last entry, and only the rest is asked for`, async () => {
      const segments = [...THREE, { id: 'help', text: 'Help' }];
      provider.reply(
        openaiReply(cut, { input: 400, output: 4000 }, 'length'),
        openaiReply({ de: ['Hilfe'] }, { input: 100, output: 20 }),
      );
      const { engine } = openaiEngine(provider);

      const result = await engine.translate(chunk(segments, [DE]));

      assert.deepEqual(plain(result.translations), {
        de: { open: 'Öffne <x1/> jetzt.', save: '<g1>Alles</g1> speichern', quit: '<x1/> beenden', help: 'Hilfe' },
      });
      const repair = userMessage(provider.requests[1]!);
      // "Hil" was cut: the repair carries only the fourth segment, as line 1
      assert.deepEqual(repair.segments, ['Help']);
      assert.deepEqual(repair.fix, [{ lang: 'de', line: 1, problem: 'missing from the answer' }]);
      assert.deepEqual(result.usage, { inputTokens: 500, outputTokens: 4020 });
    });
  }
});

describe('openai engine: transport faults', () => {
  test('429 waits as long as retry-after says, then succeeds; only answered calls count', async () => {
    provider.reply(
      errorReply(429, { 'retry-after': '1' }),
      errorReply(429, { 'retry-after-ms': '250' }),
      openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 40, output: 9 }),
    );
    const { engine, sleeps } = openaiEngine(provider);

    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.deepEqual(sleeps, [1000, 250]);
    assert.equal(provider.requests.length, 3);
    assert.deepEqual(result.usage, { inputTokens: 40, outputTokens: 9 });
  });

  test('500, 503 and 529 are retried with full-jitter exponential backoff', async () => {
    provider.reply(errorReply(500), errorReply(503), errorReply(529), openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 1, output: 1 }));
    const { engine, sleeps } = openaiEngine(provider);

    await engine.translate(chunk(HELLO, [DE]));

    // random() = 0.5 of a ceiling of 500, 1000, 2000 ms
    assert.deepEqual(sleeps, [250, 500, 1000]);
    assert.equal(provider.requests.length, 4);
  });

  test('four server errors in a row fail retryably without provider details', async () => {
    provider.reply(errorReply(503), errorReply(503), errorReply(503), errorReply(503));
    const { engine } = openaiEngine(provider);

    await assert.rejects(engine.translate(chunk(HELLO, [DE])), (error: unknown) => {
      assert.ok(error instanceof EngineError);
      assert.equal(error.retryable, true);
      assert.equal(error.message, 'the model provider is unavailable');
      return true;
    });
    assert.equal(provider.requests.length, 4);
  });

  for (const status of [400, 401, 403, 404]) {
    test(`${status} fails fast with one request and is not retryable`, async () => {
      provider.reply(errorReply(status));
      const { engine, sleeps } = openaiEngine(provider);

      await assert.rejects(engine.translate(chunk(HELLO, [DE])), (error: unknown) => {
        assert.ok(error instanceof EngineError);
        assert.equal(error.retryable, false);
        assert.doesNotMatch(error.message, /fake|HTTP|\d{3}/);
        return true;
      });
      assert.equal(provider.requests.length, 1);
      assert.deepEqual(sleeps, []);
    });
  }

  test('a reply slower than the timeout is abandoned and retried', async () => {
    const abortsBefore = provider.clientAborts;
    provider.reply(
      { ...openaiReply({ de: ['zu spät'] }, { input: 1, output: 1 }), delayMs: 1000 },
      openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 7, output: 3 }),
    );
    const { engine } = openaiEngine(provider, { timeoutMs: 100 });

    const started = Date.now();
    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.ok(Date.now() - started < 900, 'the slow reply was not waited for');
    assert.equal(result.translations.get('de')?.get('s1'), 'Hallo <g1>Welt</g1>');
    assert.deepEqual(result.usage, { inputTokens: 7, outputTokens: 3 });
    assert.equal(provider.requests.length, 2);
    await waitUntil(() => provider.clientAborts === abortsBefore + 1);
  });

  test('a timeout on every attempt ends in a retryable error that says so', async () => {
    provider.reply({ hang: true }, { hang: true }, { hang: true }, { hang: true });
    const { engine } = openaiEngine(provider, { timeoutMs: 50 });

    await assert.rejects(engine.translate(chunk(HELLO, [DE])), {
      name: 'EngineError',
      message: 'the model did not answer in time',
    });
    assert.equal(provider.requests.length, 4);
  });

  test('a socket destroyed mid-response is retried', async () => {
    provider.reply({ destroyMidResponse: true }, openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 5, output: 5 }));
    const { engine, sleeps } = openaiEngine(provider);

    const result = await engine.translate(chunk(HELLO, [DE]));

    assert.equal(result.translations.get('de')?.get('s1'), 'Hallo <g1>Welt</g1>');
    assert.equal(provider.requests.length, 2);
    assert.equal(sleeps.length, 1);
  });

  test('aborting the signal cancels the in-flight request and nothing is retried', async () => {
    const abortsBefore = provider.clientAborts;
    provider.reply({ hang: true });
    const { engine, sleeps } = openaiEngine(provider);
    const controller = new AbortController();

    const pending = engine.translate(chunk(HELLO, [DE], { signal: controller.signal }));
    await provider.waitForRequests(1);
    controller.abort();

    await assert.rejects(pending, { name: 'AbortError' });
    await waitUntil(() => provider.clientAborts === abortsBefore + 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(sleeps, []);
  });

  test('aborting during a backoff wait stops at once without another request', async () => {
    provider.reply(errorReply(503));
    const controller = new AbortController();
    // The real, abortable sleep with a one-minute backoff: only the abort can end it early.
    const { engine } = openaiEngine(provider, {
      retry: { baseDelayMs: 60_000, random: () => 0.99, sleep: DEFAULT_RETRY_POLICY.sleep },
    });

    const started = Date.now();
    const pending = engine.translate(chunk(HELLO, [DE], { signal: controller.signal }));
    await provider.waitForRequests(1);
    setTimeout(() => controller.abort(), 30);

    await assert.rejects(pending, { name: 'AbortError' });
    assert.ok(Date.now() - started < 2000);
    assert.equal(provider.requests.length, 1);
  });

  test('calls to one provider never exceed the configured concurrency', async () => {
    provider.fallback(() => ({ ...openaiReply({ de: ['Hallo <g1>Welt</g1>'] }, { input: 1, output: 1 }), delayMs: 40 }));
    // Counted from here: other tests' engines have caps of their own.
    provider.reset();
    try {
      const { engine } = openaiEngine(provider, { concurrency: 2 });
      const results = await Promise.all(Array.from({ length: 6 }, () => engine.translate(chunk(HELLO, [DE]))));
      assert.equal(results.length, 6);
      assert.equal(provider.requests.length, 6);
      assert.equal(provider.maxInFlight, 2);
    } finally {
      provider.fallback(() => errorReply(500));
    }
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
