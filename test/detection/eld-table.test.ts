/**
 * eld's tables read as data (detection/eld-table.ts) must be the very tables eld's own
 * modules hold: every n-gram, every score, for each table eld ships, compared with what
 * importing the module gives. And text in any other shape is refused, not misread.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MEDIUM_TABLE_FILE } from '../../src/detection/eld-detector.js';
import { readEldTable } from '../../src/detection/eld-table.js';

describe('readEldTable', () => {
  for (const size of ['medium', 'small', 'extrasmall', 'large']) {
    it(`reads eld's ${size} table exactly as its module holds it`, async () => {
      const file = MEDIUM_TABLE_FILE.replace(/medium\.js$/, `${size}.js`);
      const { ngramsData } = (await import(file)) as { ngramsData: Record<string, unknown> };
      const { ngrams: expected, ...header } = ngramsData;
      const table = readEldTable(readFileSync(file, 'utf8'), file);
      assert.deepStrictEqual({ type: table.type, languages: table.languages }, { type: header.type, languages: header.languages });
      assert.deepStrictEqual(Object.fromEntries(table.ngrams()), expected);
    });
  }

  it('unescapes quotes and backslashes and reads bare keys', () => {
    const text = "/* licence */\nexport const ngramsData = {type:'M2',languages:{0:'en',1:'fr'},isSubset:false,ngrams:{' it\\'s ':{0:9},$DW$:{1:4},'a\\\\b':{0:1,1:2}}};\n";
    const table = readEldTable(text);
    assert.deepStrictEqual({ type: table.type, languages: table.languages }, { type: 'M2', languages: { 0: 'en', 1: 'fr' } });
    assert.deepStrictEqual([...table.ngrams()], [
      [" it's ", { 0: 9 }],
      ['$DW$', { 1: 4 }],
      ['a\\b', { 0: 1, 1: 2 }],
    ]);
  });

  it('refuses text in another shape, saying which file, what it expected and where', () => {
    assert.throws(() => readEldTable('export default {}', 'x.js'), /^Error: x\.js: no `export const ngramsData = \{…\}`/);
    // Each literal fails where `fault` last occurs in it.
    const cases: [literal: string, fault: string, expected: string][] = [
      ["{type:'M',languages:{0:'en'},ngrams:{'a\\nb':{0:1}}}", '\\n', "only `\\'` or `\\\\` as an escape"],
      ["{type:'M',languages:{0:'en'},ngrams:{'ab':{0:1},}}", '}}', 'a key'],
      ["{type:'M',languages:{0:'en'}}", '}', '`,`'],
      ["{languages:{0:'en'},ngrams:{}}", '{}', '`type` and `languages` before `ngrams`'],
      ["{type:'M',languages:{0:'en'},ngrams:{ab:{0:'x'}}}", '}}', "an n-gram's scores"],
      ["{type:'M',languages:{0:'en'},ngrams:{__proto__:{0:1}}}", '__proto__', 'a key other than `__proto__`'],
      ["{type:'M',languages:{0:'en'},ngrams:{ab:{0:1,'__proto__':2}}}", "'__proto__'", 'a key other than `__proto__`'],
      ["{type:'M',languages:{0:'en'},ngrams:{ab:{0:1}},extra:1}", ',extra', '`}`'],
      ["{type:'M',languages:{0:'en'},ngrams:{ab:{0:1}}}; export const more = 1", ' export', 'the end of the module'],
    ];
    const prefix = 'export const ngramsData = ';
    for (const [literal, fault, expected] of cases) {
      const at = prefix.length + literal.lastIndexOf(fault);
      assert.throws(
        () => [...readEldTable(`${prefix}${literal}`, 'x.js').ngrams()],
        (error: Error) => error.message === `x.js: not in the shape eld generates (expected ${expected} at character ${at})`,
        literal,
      );
    }
  });
});
