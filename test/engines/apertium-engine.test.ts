/**
 * The apertium engine against the installed pairs, and its pipelines against real
 * processes: marks that move with their words, marks pinned where a reordering lost
 * them, placeholders and glossary translations never translated, a crashed pipeline
 * restarted, a stuck one killed within its timeout, and the installed pairs mapped to
 * our codes. Answers are judged with the checks every engine's answers pass
 * (markProblem), not against stored Apertium output.
 */
import { testTokenizer } from '../helpers/tokenizer.js';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApertiumEngine } from '../../src/engines/apertium/apertium-engine.js';
import { emptiedPairs, refillPairs } from '../../src/engines/apertium/emptied-pairs.js';
import { apertiumDataDir, installedPairs } from '../../src/engines/apertium/create.js';
import { ApertiumPairs } from '../../src/engines/apertium/pairs.js';
import { ApertiumPipeline } from '../../src/engines/apertium/pipeline.js';
import { decodeSegment, encodeSegment } from '../../src/engines/apertium/stream-format.js';
import { EngineError } from '../../src/engines/engine.js';
import { markProblem } from '../../src/segments/segment.js';
import { apertiumSkip } from '../helpers/apertium.js';

/**
 * The processes of group `pgid` that still run (not zombies: a killed chain's programs
 * are reaped by init in its own time, and a zombie holds no memory). Linux's /proc.
 */
function liveInGroup(pgid: number): string[] {
  const live: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so read after the last `)`.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') live.push(stat.slice(0, stat.lastIndexOf(')') + 1));
  }
  return live;
}

/** `liveInGroup(pgid)` once it is empty, or as it is after `withinMs` (SIGKILL takes effect in the kernel's own time). */
async function liveAfterKill(pgid: number, withinMs = 5_000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  let live = liveInGroup(pgid);
  while (live.length > 0 && Date.now() < deadline) {
    await sleep(50);
    live = liveInGroup(pgid);
  }
  return live;
}

const EN = { code: 'en', name: 'English', rtl: false };
const ES = { code: 'es', name: 'Spanish', rtl: false };
const BUDGET = { maxInputTokens: 6000, maxOutputTokens: 16384 };

describe('Apertium pairs and stream format (no Apertium needed)', () => {
  test('mode names map onto our codes: three-letter and two-letter codes, variants, and names that are not ours', () => {
    const pairs = new ApertiumPairs('  eng-spa\n  spa-eng\n  spa-eng_US\n  es-pt\n  es-pt_BR\n  eco-es-fr\n  fr-es\n  eng-cat\n  ro-es\n');
    assert.equal(pairs.modeFor('en', 'es')?.name, 'eng-spa');
    assert.equal(pairs.modeFor('en-GB', 'es-MX')?.name, 'eng-spa', 'a source variant reads as its base; a target variant falls back to it');
    assert.equal(pairs.modeFor('es', 'en-US')?.name, 'spa-eng_US');
    assert.equal(pairs.modeFor('es', 'pt-BR')?.name, 'es-pt_BR');
    assert.equal(pairs.modeFor('es', 'pt-PT')?.name, 'es-pt');
    assert.equal(pairs.modeFor('es', 'ro'), undefined, 'ro-es is installed, not es-ro');
    assert.equal(pairs.modeFor('en', 'de'), undefined);
    assert.deepEqual(pairs.directions().get('en'), ['es', 'es-MX']);
    assert.equal(pairs.directions().has('ca'), false, 'Catalan is not one of our languages');
  });

  test('the stream escapes what Apertium reserves and hides marks in superblanks and word-bound blanks', () => {
    const encoded = encodeSegment('  Pay <g1>$5</g1> to <x1/> ~now [ok]  ', { moveMarks: true });
    assert.equal(encoded.lead, '  ');
    assert.equal(encoded.trail, '  ');
    assert.equal(encoded.stream, 'Pay [[g1]]\\$5[[/]] to [#0] [#1]now \\[ok\\][]');
    assert.deepEqual(encoded.literals, [{ text: '<x1/>', pairs: [] }, { text: '~', pairs: [] }]);
    // An answer that keeps the blanks decodes to the marks again.
    assert.equal(decodeSegment('Paga [[g1]]\\$5[[/]] a [#0] [#1]ahora \\[ok\\][]', encoded), '  Paga <g1>$5</g1> a <x1/> ~ahora [ok]  ');
  });

  test('a pair without words travels whole; pinned marks are literals in source order', () => {
    const linkedImage = encodeSegment('See <g1><x1/></g1> here', { moveMarks: true });
    assert.deepEqual(linkedImage.literals, [{ text: '<g1><x1/></g1>', pairs: [] }]);
    // A literal inside a pair goes back inside it, wherever the pair's words went.
    const inside = encodeSegment('<g1>Contents<g2></g2></g1>', { moveMarks: true });
    assert.deepEqual(inside.literals, [{ text: '<g2></g2>', pairs: [1] }]);
    assert.equal(decodeSegment('[[g1]]Índice[[/]] [#0][]', inside), '<g1>Índice <g2></g2></g1>');
    const pinned = encodeSegment('<g1>I</g1> bought it', { moveMarks: false });
    assert.equal(pinned.stream, '[#0]I[#1] bought it[]');
    // Transfer rules move blanks too: pinned pair marks come back in source order whatever order their blanks took.
    const moved = encodeSegment('the same <g1>route options</g1> interface', { moveMarks: false });
    const answer = decodeSegment('la[#1] interfaz de opciones de la misma [#0]ruta[]', moved);
    assert.equal(answer, 'la <g1>interfaz de opciones de la misma</g1> ruta');
    assert.equal(markProblem('the same <g1>route options</g1> interface', answer), null);
    // Blanks given back elsewhere: the word and the pair are kept apart where the source has them apart.
    const apart = encodeSegment('<g1>non-static</g1> data', { moveMarks: true });
    assert.equal(decodeSegment('dato[[g1]]noestático[[/]] []', apart), 'dato <g1>noestático</g1>');
    assert.equal(decodeSegment('a[[g1]]b[[/]][]', encodeSegment('a<g1>b</g1>', { moveMarks: true })), 'a<g1>b</g1>');
    // A dropped first word leaves its blank inside the pair; it goes outside, where markdown still reads emphasis.
    const dropped = encodeSegment('<g1>It is worth noting.</g1>', { moveMarks: false });
    assert.equal(decodeSegment('[#0] Vale notar.[#1][]', dropped), '<g1>Vale notar.</g1>');
    assert.equal(decodeSegment('[#0] Vale notar.[#1][]', encodeSegment('<g1> It is worth noting.</g1>', { moveMarks: false })), '<g1> Vale notar.</g1>');
  });

  test('a superblank Apertium swallowed goes back after the one before it; an escaped bracket is text, not a blank', () => {
    const encoded = encodeSegment('stable.<x1/> There<x2/> are no plans<x3/> at all', { moveMarks: true });
    assert.equal(encoded.stream, 'stable.[#0] There[#1] are no plans[#2] at all[]');
    // A multiword (`There are` → `hay`) took [#1] with it.
    assert.equal(decodeSegment('estable.[#0] no hay ningún plan[#2] en absoluto[]', encoded), 'estable.<x1/><x2/> no hay ningún plan<x3/> en absoluto');
    assert.equal(decodeSegment('estable. no hay ningún plan[#2] en absoluto[]', encoded), '<x1/><x2/>estable. no hay ningún plan<x3/> en absoluto');
    const escaped = encodeSegment('a [#0] b<x1/> c', { moveMarks: true });
    assert.equal(decodeSegment('A \\[#0\\] B C[]', escaped), '<x1/>A [#0] B C');
  });

  test('a pair whose words were dropped is found, innermost, and filled again', () => {
    const source = 'According to it, <g1><g2>You</g2></g1> is a <g3>pronoun</g3>.';
    const answer = 'Según él, <g1><g2></g2></g1> es un <g3>pronombre</g3>.';
    assert.deepEqual(emptiedPairs(source, answer), [{ pair: 2, words: 'You' }]);
    assert.equal(refillPairs(answer, [{ pair: 2, words: 'Tú' }]), 'Según él, <g1><g2>Tú</g2></g1> es un <g3>pronombre</g3>.');
    assert.deepEqual(emptiedPairs('a <g1><x1/></g1> b', 'A <g1><x1/></g1> B'), [], 'a pair with no words in the source is not emptied');
  });
});

describe('the apertium engine with the installed pairs', { skip: apertiumSkip() }, () => {
  let engine: ApertiumEngine;
  before(() => {
    engine = new ApertiumEngine({ pairs: installedPairs(), dataDir: apertiumDataDir(), budget: BUDGET, timeoutMs: 20_000, concurrency: 2, tokenizer: testTokenizer });
  });
  after(() => engine?.close());

  const translate = async (texts: string[], glossary?: Array<{ term: string; translations: Record<string, string> }>) => {
    const result = await engine.translate({
      segments: texts.map((text, i) => ({ id: `s${i}`, text })),
      targets: [ES],
      source: EN,
      format: 'plain',
      ...(glossary ? { glossary } : {}),
    });
    return texts.map((_, i) => result.translations.get('es')!.get(`s${i}`)!);
  };

  test('every answer keeps its marks, whether they moved with their words or had to be pinned', async () => {
    const texts = [
      'I bought a <g1>red</g1> car.',
      '<g1>I</g1> bought a car.',
      'Click <g1><g2>the red</g2> button</g1> to see <g3>more</g3> cars.',
      'See <g1><x1/></g1> for the <g2>list of files</g2>.',
      'Hello, <x1/>! You have <x2/> new messages.',
      'Use <x1/> to install it,\nthen run <x2/>.',
    ];
    const answers = await translate(texts);
    answers.forEach((answer, i) => {
      assert.equal(markProblem(texts[i]!, answer), null, `${texts[i]} → ${answer}`);
      assert.notEqual(answer, texts[i]);
    });
    assert.match(answers[0]!, /coche <g1>rojo<\/g1>\./, 'the pair moved with its adjective');
    assert.match(answers[5]!, /\n/, 'a line break comes back');
  });

  test('a text Apertium answers with nothing keeps its source words rather than failing the chunk', async () => {
    assert.deepEqual(await translate(['Will', 'The house is big.']), ['Will', 'La casa es grande.']);
  });

  test('a glossary term comes back as its required translation, untranslated by Apertium', async () => {
    const [answer] = await translate(['Open the dashboard to see your invoices.'], [{ term: 'dashboard', translations: { es: 'Panel Pro' } }]);
    assert.match(answer!, /Panel Pro/);
    assert.doesNotMatch(answer!, /dashboard/i);
  });

  test('a target with no installed pair is refused, not translated', async () => {
    await assert.rejects(
      engine.translate({ segments: [{ id: 's1', text: 'Hello' }], targets: [{ code: 'de', name: 'German', rtl: false }], source: EN, format: 'plain' }),
      (error: unknown) => error instanceof EngineError && !error.retryable && /en to de/.test(error.message),
    );
  });

  test('close() stops every pipeline with its processes; an idle pipeline stops by itself after its idle time', async () => {
    const idling = new ApertiumEngine({ pairs: installedPairs(), dataDir: apertiumDataDir(), budget: BUDGET, timeoutMs: 20_000, concurrency: 1, idleMs: 300, tokenizer: testTokenizer });
    const once = () => idling.translate({ segments: [{ id: 's1', text: 'The house is big.' }], targets: [ES], source: EN, format: 'plain' });
    try {
      await once();
      const pipeline = idling.pipelines('eng-spa')[0]!;
      const firstPid = pipeline.pid!;
      await sleep(1_000);
      assert.equal(pipeline.running, false, 'stopped after 300 ms with nothing to do');
      assert.deepEqual(await liveAfterKill(firstPid), [], 'its processes are gone');
      const again = await once();
      assert.match(again.translations.get('es')!.get('s1')!, /casa/, 'the next text starts it again');
      assert.equal(pipeline.starts, 2);
      const pid = pipeline.pid!;
      idling.close();
      assert.equal(idling.pipelines('eng-spa').length, 0);
      assert.deepEqual(await liveAfterKill(pid), [], 'close() killed the running chain');
    } finally {
      idling.close();
    }
  });

  test('a crashed pipeline fails its waiting text with a retryable error and is started again for the next', async () => {
    await translate(['The house is big.']);
    const pipeline = engine.pipelines('eng-spa')[0]!;
    const startsBefore = pipeline.starts;
    // A text that keeps the chain busy while it is killed.
    const waiting = pipeline.translate(`${'The long road goes on and on. '.repeat(20000)}[]`);
    process.kill(-pipeline.pid!, 'SIGKILL');
    await assert.rejects(waiting, (error: unknown) => error instanceof EngineError && error.retryable && /stopped/.test(error.message));
    const [answer] = await translate(['The house is big.']);
    assert.match(answer!, /casa/);
    assert.equal(pipeline.starts, startsBefore + 1);
  });
});

describe('an Apertium pipeline that does not answer', () => {
  test('is killed at its timeout and every waiting text fails with a retryable error; the next text starts a new one', async () => {
    // A chain that reads and never answers, standing in for a stuck Apertium stage.
    const pipeline = new ApertiumPipeline({ chain: 'cat > /dev/null', timeoutMs: 300 });
    const started = Date.now();
    const results = await Promise.allSettled([pipeline.translate('one'), pipeline.translate('two')]);
    assert.ok(Date.now() - started < 5_000);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      assert.ok(result.reason instanceof EngineError && result.reason.retryable && /did not answer in time/.test(result.reason.message));
    }
    const pid = pipeline.pid;
    assert.equal(pid, undefined, 'the stuck chain is gone');
    const again = pipeline.translate('three');
    assert.equal(pipeline.starts, 2);
    await assert.rejects(again, /did not answer in time/);
    await sleep(50);
  });

  test('a chain left idle for its idle time is stopped, and started again by the next text', async () => {
    const pipeline = new ApertiumPipeline({ chain: 'stdbuf -o0 tr a-z A-Z', timeoutMs: 5_000, idleMs: 200 });
    assert.equal(await pipeline.translate('one'), 'ONE');
    const pid = pipeline.pid!;
    assert.ok(pipeline.running);
    await sleep(100);
    assert.ok(pipeline.running, 'not stopped before its idle time');
    await sleep(400);
    assert.equal(pipeline.running, false, 'stopped once idle');
    assert.deepEqual(await liveAfterKill(pid), [], 'its whole process group is gone');
    assert.equal(await pipeline.translate('two'), 'TWO');
    assert.equal(pipeline.starts, 2);
    pipeline.close();
    assert.equal(pipeline.running, false);
  });

  test('a chain that echoes its texts answers them in order, several in the pipe at once', async () => {
    // `tr` is a real null-flushing filter here: it passes the `\0` that ends each text.
    const pipeline = new ApertiumPipeline({ chain: 'stdbuf -o0 tr a-z A-Z', timeoutMs: 5_000 });
    const answers = await Promise.all(['one', 'two', 'three'].map((text) => pipeline.translate(text)));
    assert.deepEqual(answers, ['ONE', 'TWO', 'THREE']);
    pipeline.close();
  });
});
