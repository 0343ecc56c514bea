/**
 * Plural forms of locale files are worded per category (docs/contract.md §5, §6): a
 * gettext `msgid`/`msgid_plural`, a Rails plural hash, an Android `<plurals>`, a
 * `.stringsdict` plural variable and a String Catalog's plural variations (decision 0098)
 * reach the model as one segment
 * with a branch per form, the target's added categories on a `branches:` line and their
 * example numbers on a `plurals:` line (Russian `few: 2, 3, 4, 22, 23`); each gettext
 * `msgstr[N]`, hash key, `<item quantity>` and Apple plural form then gets the text the
 * model wrote for its category, so Russian's `few` and `many` differ; each answer is
 * read by the format's own tools (msgfmt, aapt and translate-toolkit, plistlib). The fake provider over HTTP records the prompt and
 * answers each branch with its category's name.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { json } from '../helpers/app.js';
import { openaiReply, targetCodes, userMessage, type ReplyScript } from '../helpers/fake-provider.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { aaptValues, quantities, toolkitUnits } from '../formats/android-judges.js';
import { plistlibRead, toolkitStringsdict } from '../formats/apple-judges.js';

/**
 * A translator that writes, inside each branch pair, `[category]` before the branch's
 * text: a source branch's category is given by the test (`<g1>` one, `<g2>` other), an
 * added one is read from the `branches:` line, as a model would.
 */
function categoryTranslator(sourceBranches: Record<string, string>): ReplyScript {
  return (request) => {
    const message = userMessage(request);
    const added = new Map<string, string>();
    for (const [, pair, category] of (message.branches ?? '').matchAll(/<g(\d+)> (\w+)/g)) added.set(pair!, category!);
    const word = (pair: string): string => added.get(pair) ?? sourceBranches[pair] ?? '?';
    const translate = (text: string): string => text.replace(/<g(\d+)>(.*?)<\/g\1>/g, (_all, pair: string, body: string) => `<g${pair}>[${word(pair)}] ${body}</g${pair}>`);
    return openaiReply(Object.fromEntries(targetCodes(message).map((code) => [code, message.segments.map(translate)])), { input: 10, output: 10 });
  };
}

const dir = mkdtempSync(join(tmpdir(), 'plural-prompt-'));

function msgfmtProblem(content: string): string {
  const path = join(dir, 'answer.po');
  writeFileSync(path, content);
  try {
    execFileSync('msgfmt', ['-c', '-o', '/dev/null', path], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

describe('plural forms of locale files with an OpenAI-compatible model behind the API', () => {
  // One call per request: these tests read what reaches the model, not how the planner
  // spreads small requests over the slots (test/translation/plan.test.ts).
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '1' } });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const { translate } = app;

  test("gettext's msgstr[N] for Russian: each form worded for its numbers, few and many apart", async () => {
    app.provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const po =
      'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: en\\n"\n\n' +
      '#, c-format\nmsgid "%d file was removed"\nmsgid_plural "%d files were removed"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const response = await translate({ content: po, targets: ['ru'], format: 'po', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(app.provider.requests[0]!);
    assert.equal(message.segments.length, 1, 'one segment holds every form');
    assert.match(message.plurals ?? '', /^ru one: 1, 21, 31, 41, 51 \| few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8 \| other: 0\.5/);
    assert.match(message.branches ?? '', /<g\d+> few, <g\d+> many on line 1/);
    const answer: string = json(response).translations.ru;
    assert.match(answer, /^msgstr\[0\] "\[one\] %d file was removed"$/m);
    assert.match(answer, /^msgstr\[1\] "\[few\] %d files were removed"$/m);
    assert.match(answer, /^msgstr\[2\] "\[many\] %d files were removed"$/m);
    assert.equal(msgfmtProblem(answer), '');
  });

  test('a German target needs no form of its own: no plurals line, and msgstr[0] is the singular', async () => {
    app.provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const po = '#, c-format\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] ""\nmsgstr[1] ""\n';
    const response = await translate({ content: po, targets: ['de'], format: 'po', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(app.provider.requests[0]!);
    assert.equal(message.plurals, undefined);
    const answer: string = json(response).translations.de;
    assert.match(answer, /^msgstr\[0\] "\[one\] %d file"\nmsgstr\[1\] "\[other\] %d files"$/m);
  });

  test('a Rails plural hash for Russian: few and many keys, each with its own wording', async () => {
    app.provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const yaml = 'en:\n  cart:\n    items:\n      one: "%{count} item"\n      other: "%{count} items"\n';
    const response = await translate({ content: yaml, targets: ['ru'], format: 'yaml', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(app.provider.requests[0]!);
    assert.match(message.plurals ?? '', /few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8/);
    const answer = parse(json(response).translations.ru, { version: '1.2' }) as { ru: { cart: { items: Record<string, string> } } };
    assert.deepEqual(answer.ru.cart.items, {
      one: '[one] %{count} item',
      few: '[few] %{count} items',
      many: '[many] %{count} items',
      other: '[other] %{count} items',
    });
  });

  test('an Android <plurals> for Russian and Arabic: each quantity worded for its numbers, read by aapt and translate-toolkit', async () => {
    app.provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const xml = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <!-- Shown after a clean-up -->\n    <plurals name="files_deleted">\n        <item quantity="one">%d file deleted</item>\n        <item quantity="other">%d files deleted</item>\n    </plurals>\n</resources>\n';
    const response = await translate({ content: xml, targets: ['ru', 'ar'], format: 'android', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const message = userMessage(app.provider.requests[0]!);
    assert.equal(message.segments.length, 1, 'one segment holds every quantity');
    assert.match(message.plurals ?? '', /ru one: 1, 21, 31, 41, 51 \| few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8 \| other: 0\.5/);
    const { ru, ar } = json(response).translations as { ru: string; ar: string };
    assert.match(ru, /\n {8}<item quantity="one">\[one\] %d file deleted<\/item>\n {8}<item quantity="few">\[few\] %d files deleted<\/item>\n {8}<item quantity="many">\[many\] %d files deleted<\/item>\n {8}<item quantity="other">\[other\] %d files deleted<\/item>\n/);
    assert.deepEqual(quantities(ar).files_deleted, ['one', 'zero', 'two', 'few', 'many', 'other']);
    for (const category of ['zero', 'two', 'few', 'many']) assert.match(ar, new RegExp(`<item quantity="${category}">\\[${category}\\] %d files deleted</item>`));
    for (const [code, answer] of [["ru", ru], ["ar", ar]] as const) {
      aaptValues(answer); // throws what aapt said if it refuses the file
      const forms = toolkitUnits(answer, code).files_deleted;
      assert.ok(Array.isArray(forms) && forms.includes('[one] %d file deleted') && forms.includes('[few] %d files deleted') && forms.includes('[many] %d files deleted'), JSON.stringify(forms));
    }
  });

  test('a .stringsdict plural variable for Russian and Arabic: every CLDR form worded, read by plistlib and translate-toolkit', async () => {
    app.provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const plist = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>files</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d file</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d files</string>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n';
    const response = await translate({ content: plist, targets: ['ru', 'ar'], format: 'stringsdict', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(userMessage(app.provider.requests[0]!).plurals ?? '', /few: 2, 3, 4, 22, 23 \| many: 0, 5, 6, 7, 8/);
    const { ru, ar } = json(response).translations as { ru: string; ar: string };
    const forms = (text: string) => (plistlibRead(text) as { files: { n: Record<string, string> } }).files.n;
    assert.deepEqual(forms(ru), {
      NSStringFormatSpecTypeKey: 'NSStringPluralRuleType',
      NSStringFormatValueTypeKey: 'd',
      one: '[one] %d file',
      few: '[few] %d files',
      many: '[many] %d files',
      other: '[other] %d files',
    });
    assert.deepEqual([...ar.matchAll(/<key>(zero|one|two|few|many|other)<\/key>/g)].map((m) => m[1]), ['one', 'zero', 'two', 'few', 'many', 'other']);
    for (const category of ['zero', 'two', 'few', 'many']) assert.equal(forms(ar)[category], `[${category}] %d files`);
    for (const answer of [ru, ar]) assert.ok(Object.keys(toolkitStringsdict(answer)).length > 0, 'translate-toolkit reads the answer');
  });

  test("a String Catalog's plural variations for Russian: each form worded, in Xcode's key order", async () => {
    app.provider.fallback(categoryTranslator({ '1': 'one', '2': 'other' }));
    const catalog =
      '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "%lld files" : {\n      "localizations" : {\n        "en" : {\n          "variations" : {\n            "plural" : {\n' +
      '              "one" : {\n                "stringUnit" : {\n                  "state" : "translated",\n                  "value" : "%lld file"\n                }\n              },\n' +
      '              "other" : {\n                "stringUnit" : {\n                  "state" : "translated",\n                  "value" : "%lld files"\n                }\n              }\n' +
      '            }\n          }\n        }\n      }\n    }\n  },\n  "version" : "1.0"\n}';
    const response = await translate({ content: catalog, targets: ['ru'], format: 'xcstrings', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(userMessage(app.provider.requests[0]!).segments.length, 1, 'one segment holds every form');
    const ru: string = json(response).translations.ru;
    const plural = JSON.parse(ru).strings['%lld files'].localizations.ru.variations.plural as Record<string, { stringUnit: { state: string; value: string } }>;
    assert.deepEqual(Object.keys(plural), ['few', 'many', 'one', 'other']);
    for (const category of ['one', 'few', 'many', 'other']) {
      assert.deepEqual(plural[category]!.stringUnit, { state: 'translated', value: `[${category}] %lld file${category === 'one' ? '' : 's'}` });
    }
  });
});
