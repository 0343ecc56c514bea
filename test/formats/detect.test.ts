import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FORMATS } from '../../src/formats/format.js';
import { detectFormat } from '../../src/formats/index.js';
import { confusion } from '../../bench/formats/confusion.js';
import { SAMPLES } from '../fixtures/formats/detection/samples.js';

describe('detectFormat', () => {
  it('the labelled corpus has at least 50 samples of every format', () => {
    for (const format of FORMATS) assert.ok(SAMPLES.filter((s) => s.format === format).length >= 50, format);
  });

  it('is at least 97% accurate on the labelled corpus', () => {
    const { correct, total, misses } = confusion();
    assert.ok(correct / total >= 0.97, `accuracy ${correct}/${total}\n${misses.join('\n')}`);
  });

  it('gives a confidence in [0, 1] for every sample', () => {
    for (const sample of SAMPLES) {
      const { confidence } = detectFormat(sample.content);
      assert.ok(confidence >= 0 && confidence <= 1, `${confidence} for ${sample.content}`);
    }
  });

  it('calls json only what parses as an object or array', () => {
    assert.equal(detectFormat('{"a": 1}').format, 'json');
    assert.equal(detectFormat('"just a string"').format, 'plain');
    assert.equal(detectFormat('42').format, 'plain');
    assert.equal(detectFormat('{"a": 1,}').format, 'plain');
  });

  it('is sure of clear cases and less sure of borderline ones', () => {
    assert.ok(detectFormat('<!doctype html><html><body><p>x</p></body></html>').confidence >= 0.9);
    assert.ok(detectFormat('{"a": "b"}').confidence >= 0.9);
    const borderline = detectFormat('Read the [docs](https://x.y).');
    assert.equal(borderline.format, 'markdown');
    assert.ok(borderline.confidence < 0.8);
  });
});
