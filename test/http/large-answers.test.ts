/**
 * A large answer leaves in slices, one a turn (src/http/plugins/large-answers.ts), on a bare
 * Fastify app with that plugin, over real HTTP: the bytes are the answer's, small answers and
 * answers kept for an Idempotency-Key are written whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  AnswerInSlices,
  largeAnswersInSlices,
  LARGE_ANSWER_CHARS,
  serializeAnswer,
  serializedWhenLarge,
  serializeInTurns,
} from '../../src/http/plugins/large-answers.js';

/** Text of `chars` UTF-16 units with two-byte letters and emoji (surrogate pairs) throughout. */
function mixedText(chars: number): string {
  const units = ['Grüße ', '😀', 'ł', ' naïve ', '𝄞', '"q"\n'];
  let text = '';
  for (let i = 0; text.length < chars; i++) text += units[i % units.length];
  return text;
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('AnswerInSlices', () => {
  it('gives the UTF-8 bytes of the whole text, whatever falls on a slice boundary', async () => {
    for (const shift of [0, 1, 2, 3]) {
      // An emoji straddles the first slice boundary for one of the shifts.
      const text = `${'a'.repeat(128 * 1024 - 2 + shift)}😀${mixedText(300_000)}`;
      assert.deepEqual(await collect(new AnswerInSlices([text])), Buffer.from(text, 'utf8'), `shift ${shift}`);
    }
    assert.equal((await collect(new AnswerInSlices(['']))).length, 0);
  });
});

describe('serializeInTurns', () => {
  it("gives JSON.stringify's text, each long string stringified in a turn of its own", async () => {
    const documents = [0, 1, 2].map((n) => `{"k${n}": "${mixedText(200_000 + n)}\\u0000"}\t</script>`);
    const value = {
      translations: { de: documents[0], fr: documents[1] },
      nested: [{ text: documents[2], short: 'é"\n', n: 1.5, gone: undefined, none: null }],
      usage: { input_tokens: 3, at: new Date(0) },
    };
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const serialized = await serializeInTurns(value);
    ticking = false;
    assert.equal(serialized.parts.join(''), JSON.stringify(value));
    assert.ok(turns >= 3, `serialized in ${turns} turns`);
    assert.deepEqual(await collect(new AnswerInSlices(serialized.parts)), Buffer.from(JSON.stringify(value), 'utf8'));
  });

  it('leaves an answer whose translations are small as it is, and serializes a large one in parts', async () => {
    const small = { translations: { de: 'Hallo' } };
    assert.equal(serializedWhenLarge(small, [small.translations]), small);
    const large = { translations: { de: mixedText(LARGE_ANSWER_CHARS / 2 + 1), fr: mixedText(LARGE_ANSWER_CHARS / 2 + 1) } };
    const serialized = await serializedWhenLarge(large, [large.translations]);
    assert.equal(serializeAnswer(serialized), serialized, 'the serializer passes the parts on');
    assert.equal(serializeAnswer(small), JSON.stringify(small));
  });
});

describe('large answers over HTTP', () => {
  let app: FastifyInstance;
  let base: string;
  const large = { translations: [{ content: mixedText(LARGE_ANSWER_CHARS + 500_000) }] };
  /** The distinct turns (check phases) in which the answer's body was written, per request id. */
  const turnsOfWrites = new Map<string, Set<number>>();
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };

  before(async () => {
    app = Fastify();
    // As reference.ts sets it for the routes' answer schemas.
    app.setReplySerializer(serializeAnswer);
    app.decorateRequest('idempotency', undefined);
    largeAnswersInSlices(app);
    app.addHook('onRequest', (request, reply, done) => {
      const turns = new Set<number>();
      turnsOfWrites.set(request.headers['x-test-id'] as string, turns);
      for (const method of ['write', 'end'] as const) {
        const original = reply.raw[method].bind(reply.raw) as (...args: unknown[]) => unknown;
        reply.raw[method] = ((...args: unknown[]) => {
          if (args[0] !== undefined && typeof args[0] !== 'function') turns.add(turn);
          return original(...args);
        }) as never;
      }
      // What the idempotency plugin sets when a request carries a key.
      if (request.headers['idempotency-key']) (request as unknown as { idempotency: object }).idempotency = {};
      done();
    });
    app.get('/large', async () => large);
    app.get('/large-in-turns', async () => serializeInTurns(large));
    app.get('/small', async () => ({ ok: 'yes' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    setImmediate(tick);
  });
  after(async () => {
    ticking = false;
    await app.close();
  });

  it('writes a large answer over several turns, chunked, with the same bytes', async () => {
    const response = await fetch(`${base}/large`, { headers: { 'x-test-id': 'large' } });
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    assert.deepEqual(bytes, Buffer.from(JSON.stringify(large), 'utf8'));
    assert.ok(turnsOfWrites.get('large')!.size >= 8, `written in ${turnsOfWrites.get('large')!.size} turns`);
  });

  it('writes an answer serialized in turns in slices, with the same bytes; whole when kept for an Idempotency-Key', async () => {
    const response = await fetch(`${base}/large-in-turns`, { headers: { 'x-test-id': 'in-turns' } });
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), Buffer.from(JSON.stringify(large), 'utf8'));
    assert.ok(turnsOfWrites.get('in-turns')!.size >= 8, `written in ${turnsOfWrites.get('in-turns')!.size} turns`);
    const kept = await fetch(`${base}/large-in-turns`, { headers: { 'x-test-id': 'in-turns-kept', 'idempotency-key': 'k2' } });
    const bytes = Buffer.from(await kept.arrayBuffer());
    assert.equal(kept.headers.get('content-length'), String(bytes.length));
    assert.deepEqual(bytes, Buffer.from(JSON.stringify(large), 'utf8'));
  });

  it('writes a small answer whole, with its length', async () => {
    const response = await fetch(`${base}/small`, { headers: { 'x-test-id': 'small' } });
    assert.deepEqual(await response.json(), { ok: 'yes' });
    assert.equal(response.headers.get('content-length'), String(JSON.stringify({ ok: 'yes' }).length));
    assert.equal(turnsOfWrites.get('small')!.size, 1);
  });

  it('leaves a large answer kept for an Idempotency-Key whole', async () => {
    const response = await fetch(`${base}/large`, { headers: { 'x-test-id': 'kept', 'idempotency-key': 'k1' } });
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(response.headers.get('content-length'), String(bytes.length));
    assert.deepEqual(bytes, Buffer.from(JSON.stringify(large), 'utf8'));
    assert.equal(turnsOfWrites.get('kept')!.size, 1);
  });
});
