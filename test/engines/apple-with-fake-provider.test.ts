/**
 * The Apple formats with a model behind the API (issue 34; CONTRACT §6): the real app
 * over HTTP with an OpenAI-compatible fake provider that records each prompt. `.strings`
 * and String Catalog comments reach the model on the `notes:` line with their entry; an
 * answer that drops a `%@` or `%#@var@` is repaired before anything is returned; a
 * `.stringsdict` answer has the target's plural forms.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { echoTranslator, openaiReply, targetCodes, userMessage, userText, type ReplyScript } from '../helpers/fake-provider.js';

const notesOf = (text: string): Record<string, string> | undefined => {
  const line = text.split('\n').find((l) => l.startsWith('notes: '));
  return line ? (JSON.parse(line.slice('notes: '.length)) as Record<string, string>) : undefined;
};

/** Answers `[code] text` with every atom mark (`<x1/>`: the directives) left out, for the first `wrong` calls. */
function dropsDirectives(wrong: number): ReplyScript {
  return (request, index) => {
    const message = userMessage(request);
    const translations = Object.fromEntries(
      targetCodes(message).map((code) => [code, message.segments.map((text) => `[${code}] ${index < wrong ? text.replace(/<x\d+\/>/g, '') : text}`)]),
    );
    return openaiReply(translations, { input: 50, output: 20 });
  };
}

describe('Apple formats with an OpenAI-compatible model behind the API', () => {
  // One call per request: these tests read what reaches the model, not how the planner
  // spreads small requests over the slots (test/translation/plan.test.ts).
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '1' } });

  const { translate } = app;

  test('.strings comments reach the model with their entry, format detected', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const strings = '/* The button that stores the document */\n"doc.save_button" = "Save";\n\n"doc.long" = "A long sentence that needs no note from anybody at all.";\n';
    const response = await translate({ content: strings, targets: ['de'], memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).usage.detected_format, 'strings');
    assert.deepEqual(notesOf(userText(app.provider.requests[0]!)), { '1': 'key: doc.save_button | The button that stores the document' });
    assert.equal(json(response).translations.de, '/* The button that stores the document */\n"doc.save_button" = "[de] Save";\n\n"doc.long" = "[de] A long sentence that needs no note from anybody at all.";\n');
  });

  test('String Catalog comments reach the model, and the answer holds the target\'s localization', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const catalog = '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "Open the selected document in a new window" : {\n      "comment" : "Menu item of the File menu"\n    }\n  },\n  "version" : "1.0"\n}';
    const response = await translate({ content: catalog, targets: ['pt-BR'], memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).usage.detected_format, 'xcstrings');
    assert.deepEqual(notesOf(userText(app.provider.requests[0]!)), { '1': 'Menu item of the File menu' });
    const answer = JSON.parse(json(response).translations['pt-BR']);
    assert.deepEqual(answer.strings['Open the selected document in a new window'].localizations['pt-BR'], {
      stringUnit: { state: 'translated', value: '[pt-BR] Open the selected document in a new window' },
    });
  });

  test('an answer that drops %@ or %#@var@ is repaired before the file is returned', async () => {
    app.provider.fallback(dropsDirectives(1));
    const strings = '"greeting" = "Hello %@, you have %#@messages@ waiting";\n';
    const response = await translate({ content: strings, targets: ['fr'], format: 'strings', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).translations.fr, '"greeting" = "[fr] Hello %@, you have %#@messages@ waiting";\n');
    assert.ok(app.provider.requests.length >= 2, 'a repair round was made');
    const repair = userMessage(app.provider.requests[1]!);
    assert.match(JSON.stringify(repair.fix), /missing token <x1\/>/);
  });

  test('a .stringsdict answer has the target\'s plural forms, each worded by the model', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const plist = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>files</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d file</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%d files</string>\n\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n';
    const response = await translate({ content: plist, targets: ['ru'], memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(json(response).usage.detected_format, 'stringsdict');
    const ru: string = json(response).translations.ru;
    assert.deepEqual([...ru.matchAll(/<key>(zero|one|two|few|many|other)<\/key>/g)].map((m) => m[1]), ['one', 'few', 'many', 'other']);
    // (The echo model's `[ru] ` lies outside every form; each form's own wording: locale-plurals-with-fake-provider.test.ts.)
    assert.match(ru, /<key>few<\/key>\n\t\t\t<string>%d files<\/string>/);
  });

  test('bad input is a 400 invalid_request naming the line, a hostile shape a 422, and no model is called', async () => {
    const bad = await translate({ content: '"a" = "b";\n"c" = "d"\n', targets: ['fr'], format: 'strings' });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(json(bad).error, 'invalid_request');
    assert.match(json(bad).message, /line 3/);
    const entities = await translate({ content: '<!DOCTYPE plist [\n<!ENTITY a "aaaa">\n]>\n<plist><dict><key>k</key><string>&a;</string></dict></plist>', targets: ['fr'], format: 'stringsdict' });
    assert.equal(entities.statusCode, 400, entities.body);
    const deep = await translate({ content: `{"sourceLanguage":"en","strings":{"a":${'['.repeat(5000)}${']'.repeat(5000)}},"version":"1"}`, targets: ['fr'], format: 'xcstrings' });
    assert.equal(deep.statusCode, 422, deep.body);
    assert.equal(app.provider.requests.length, 0);
  });
});
