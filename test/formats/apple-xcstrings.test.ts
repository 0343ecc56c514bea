/**
 * Xcode String Catalogs (docs/formats.md "xcstrings"): the answer for a target is the
 * whole catalog with that target's localizations added or replaced, in Xcode's JSON
 * layout (re-writing the parsed answer Xcode's way gives the answer itself), every other
 * byte kept; plural variations get the target's full CLDR categories; comments reach the
 * model as notes; `shouldTranslate: false` entries are left alone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/errors.js';
import { detectFormat, getAdapter } from '../../src/formats/index.js';
import { writeXcodeJson } from '../../src/formats/xcstrings/xcode-json.js';
import type { XcodeValue } from '../../src/formats/xcstrings/xcode-json.js';
import { byteExactProblem } from './byte-exact.js';
import { pseudoRender, unpseudo } from './helpers.js';

const CATALOG = `{
  "sourceLanguage" : "en",
  "strings" : {
    "" : {
      "shouldTranslate" : false
    },
    "%lld files" : {
      "comment" : "Number of files in the sidebar",
      "localizations" : {
        "en" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld file"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld files"
                }
              }
            }
          }
        }
      }
    },
    "Cancel" : {

    },
    "Open %@" : {
      "comment" : "Menu item that opens a document",
      "extractionState" : "manual"
    },
    "save.button" : {
      "extractionState" : "manual",
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Sichern"
          }
        },
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Save \\"now\\""
          }
        },
        "fr" : {
          "stringUnit" : {
            "state" : "needs_review",
            "value" : "Enregistrer"
          }
        }
      }
    },
    "Tap to continue" : {
      "localizations" : {
        "en" : {
          "variations" : {
            "device" : {
              "mac" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Click to continue"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Tap to continue"
                }
              }
            }
          }
        }
      }
    },
    "URL" : {
      "shouldTranslate" : false
    }
  },
  "version" : "1.0"
}`;

type Catalog = { strings: Record<string, { localizations?: Record<string, XcodeValue>; shouldTranslate?: boolean }> };

const FR = { code: 'fr', rtl: false };

function without(catalog: Catalog, code: string): Catalog {
  const copy = structuredClone(catalog);
  for (const entry of Object.values(copy.strings)) {
    if (!entry.localizations) continue;
    delete entry.localizations[code];
    if (Object.keys(entry.localizations).length === 0) delete entry.localizations;
  }
  return copy;
}

describe('.xcstrings', () => {
  const doc = getAdapter('xcstrings').extract(CATALOG);

  it('adds or replaces the target\'s localization of every entry to translate, and changes nothing else', () => {
    const answer = JSON.parse(pseudoRender(doc, FR)) as Catalog;
    assert.deepEqual(without(answer, 'fr'), without(JSON.parse(CATALOG) as Catalog, 'fr'));
    const fr = (key: string) => answer.strings[key]!.localizations?.fr as Record<string, Record<string, string>> | undefined;
    assert.deepEqual(fr('save.button'), { stringUnit: { state: 'translated', value: 'Šáṽé "ñöŵ"' } });
    assert.deepEqual(fr('Cancel'), { stringUnit: { state: 'translated', value: 'Çáñçéļ' } });
    assert.equal(unpseudo((fr('Open %@')!.stringUnit as unknown as { value: string }).value), 'Open %@');
    assert.equal(answer.strings['']!.localizations, undefined);
    assert.equal(answer.strings.URL!.localizations, undefined);
    const device = (fr('Tap to continue') as unknown as { variations: { device: Record<string, { stringUnit: { value: string } }> } }).variations.device;
    assert.deepEqual(Object.keys(device), ['mac', 'other']);
    assert.equal(device.mac!.stringUnit.value, 'Çļíçķ ţö çöñţíñüé');
  });

  it('writes the answer exactly as Xcode would: parsed and re-written Xcode\'s way, it is unchanged', () => {
    for (const code of ['fr', 'ru', 'ar', 'zh', 'zh-TW', 'pt-BR']) {
      const answer = pseudoRender(doc, { code, rtl: code === 'ar' });
      assert.equal(writeXcodeJson(JSON.parse(answer) as XcodeValue, 0), answer, code);
    }
    assert.equal(writeXcodeJson(JSON.parse(CATALOG) as XcodeValue, 0), CATALOG, 'the fixture itself is in Xcode\'s layout');
  });

  it('is byte-exact outside the target\'s localizations', () => {
    for (const target of [FR, { code: 'ru', rtl: false }, { code: 'ar', rtl: true }]) assert.equal(byteExactProblem(doc, target), undefined);
  });

  it('names Chinese as Apple does: zh-Hans and zh-Hant', () => {
    const zh = JSON.parse(pseudoRender(doc, { code: 'zh', rtl: false })) as Catalog;
    const tw = JSON.parse(pseudoRender(doc, { code: 'zh-TW', rtl: false })) as Catalog;
    assert.ok(zh.strings.Cancel!.localizations!['zh-Hans']);
    assert.ok(tw.strings.Cancel!.localizations!['zh-Hant']);
  });

  it('gives plural variations the target\'s full CLDR categories', () => {
    const plural = (code: string) => {
      const answer = JSON.parse(pseudoRender(doc, { code, rtl: code === 'ar' })) as Catalog;
      return Object.keys((answer.strings['%lld files']!.localizations![code] as { variations: { plural: object } }).variations.plural);
    };
    assert.deepEqual(plural('ru'), ['few', 'many', 'one', 'other']);
    assert.deepEqual(plural('ja'), ['other']);
    assert.deepEqual(plural('ar'), ['few', 'many', 'one', 'other', 'two', 'zero']);
  });

  it('gives the model each entry\'s comment, and keeps %@ and %lld as marks', () => {
    const notes = doc.segments.map((s) => s.note ?? '');
    assert.ok(notes.some((note) => note.includes('Menu item that opens a document')));
    // A plural's forms are one segment with a branch per form (decision 0098), the comment its note.
    const plural = doc.segments.find((s) => (s.note ?? '').includes('Number of files in the sidebar'));
    assert.ok(plural && (plural.plurals?.[0]?.branches.length ?? 0) >= 2, JSON.stringify(plural));
    assert.ok(!doc.segments.some((s) => s.text.includes('%')));
  });

  it('is detected when format is omitted; other JSON is json', () => {
    assert.equal(detectFormat(CATALOG).format, 'xcstrings');
    assert.equal(detectFormat('{"strings": {"a": "b"}, "version": "1"}').format, 'json');
  });

  it('refuses deep nesting with document_too_complex and answers a 2 MiB entry in bounded time', () => {
    const deep = `{"sourceLanguage":"en","strings":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}},"version":"1.0"}`;
    assert.throws(() => getAdapter('xcstrings').extract(deep), (error: unknown) => error instanceof ServiceError && error.code === 'document_too_complex');
    const big = `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "${'word '.repeat(420_000)}" : {\n\n    }\n  },\n  "version" : "1.0"\n}`;
    const started = performance.now();
    const answer = pseudoRender(getAdapter('xcstrings').extract(big), FR);
    assert.ok(answer.includes('"fr" : {'));
    assert.ok(performance.now() - started < 30_000);
  });

  it('refuses what is not a catalog with invalid_request naming the line', () => {
    for (const [bad, line] of [
      ['{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : {,\n  }\n}', 4],
      ['{\n  "strings" : {}\n}', 1],
      ['{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "a" : "b"\n  },\n  "version" : "1.0"\n}', 4],
    ] as const) {
      assert.throws(
        () => getAdapter('xcstrings').extract(bad),
        (error: unknown) => error instanceof ServiceError && error.code === 'invalid_request' && error.message.includes(`line ${line}`),
        bad,
      );
    }
  });
});
