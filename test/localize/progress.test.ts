import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createReporter } from '../../src/localize/progress.js';

function capture(isTTY: boolean) {
  const out = Object.assign(new PassThrough(), { isTTY });
  const err = new PassThrough();
  let written = '';
  let errors = '';
  out.on('data', (chunk: Buffer) => (written += chunk.toString()));
  err.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return { streams: { out, err }, text: () => written, errors: () => errors };
}

describe('progress output', () => {
  it('on a terminal, redraws one line per target in place', () => {
    const { streams, text } = capture(true);
    const report = createReporter('auto', streams);
    report({ event: 'start', targets: { fr: 4, de: 4 } });
    report({ event: 'progress', target: 'fr', done: 2, total: 4 });
    const output = text();
    assert.match(output, /\x1b\[2A/, 'the cursor goes back up over the two target lines');
    assert.match(output, /fr +\[#{10}\.{10}\] 2\/4 strings/);
    assert.match(output, /de +\[\.{20}\] 0\/4 strings/);
  });

  it('elsewhere, prints plain lines without control codes, errors on stderr', () => {
    const { streams, text, errors } = capture(false);
    const report = createReporter('auto', streams);
    report({ event: 'start', targets: { fr: 4 } });
    report({ event: 'progress', target: 'fr', done: 4, total: 4 });
    report({ event: 'job', file: 'big.md', job_id: 'j1', status: 'pending', queue_position: 3 });
    report({ event: 'error', message: 'boom' });
    assert.equal(text(), 'fr: 4/4 strings\nbig.md: job j1 pending (queue position 3)\n');
    assert.equal(errors(), 'error: boom\n');
  });

  it('with --json, prints each event as one JSON line', () => {
    const { streams, text } = capture(true);
    const report = createReporter('json', streams);
    report({ event: 'progress', target: 'fr', done: 1, total: 2 });
    report({ event: 'error', message: 'boom', code: 'network_error' });
    assert.deepEqual(text().trim().split('\n').map((line) => JSON.parse(line)), [
      { event: 'progress', target: 'fr', done: 1, total: 2 },
      { event: 'error', message: 'boom', code: 'network_error' },
    ]);
  });
});
