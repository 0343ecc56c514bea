import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseProjectConfig, ProjectConfigError } from '../../src/localize/project-config.js';

const minimal = { source: 'en', targets: ['fr', 'de'], files: ['locales/{locale}.json', 'docs/{locale}/**/*.md'] };

describe('translate.config.json', () => {
  it('reads the minimal form and the options', () => {
    assert.deepEqual(parseProjectConfig(minimal), {
      source: 'en',
      targets: ['fr', 'de'],
      files: [{ pattern: 'locales/{locale}.json' }, { pattern: 'docs/{locale}/**/*.md' }],
    });
    const full = parseProjectConfig({ ...minimal, files: [{ pattern: 'pages/{locale}/*.htm', format: 'html' }], model: 'advanced', glossary_id: 'g_1' });
    assert.deepEqual(full.files, [{ pattern: 'pages/{locale}/*.htm', format: 'html' }]);
    assert.equal(full.model, 'advanced');
    assert.equal(full.glossaryId, 'g_1');
  });

  it('names the field and the problem for every mistake', () => {
    const cases: [unknown, RegExp][] = [
      [[], /must be a JSON object/],
      [{ ...minimal, sources: 'en' }, /unknown field "sources"/],
      [{ ...minimal, source: 'english' }, /"source" must be a language code/],
      [{ ...minimal, targets: [] }, /"targets" must be a non-empty array/],
      [{ ...minimal, targets: ['fr', 'xx'] }, /"targets"\[1\] must be a language code.*"xx"/],
      [{ ...minimal, targets: ['fr', 'FR'] }, /names "FR" twice/],
      [{ ...minimal, targets: ['en'] }, /includes the source language/],
      [{ ...minimal, files: 'locales/{locale}.json' }, /"files" must be a non-empty array/],
      [{ ...minimal, files: ['locales/en.json'] }, /"files"\[0\] "locales\/en.json": has no \{locale\} slot/],
      [{ ...minimal, files: [{ pattern: 'x/{locale}.txt', format: 'docx' }] }, /"files"\[0\]\.format must be one of plain, markdown, json, html/],
      [{ ...minimal, files: [{ pattern: 'x/{locale}.txt', kind: 'x' }] }, /unknown field "kind"/],
      [{ ...minimal, model: 'gpt-4' }, /"model" must be one of standard, advanced/],
      [{ ...minimal, glossary_id: 7 }, /"glossary_id" must be a non-empty string/],
    ];
    for (const [raw, message] of cases) {
      assert.throws(() => parseProjectConfig(raw), (error: unknown) => error instanceof ProjectConfigError && message.test(error.message) && error.message.startsWith('translate.config.json: '), JSON.stringify(raw));
    }
  });
});
