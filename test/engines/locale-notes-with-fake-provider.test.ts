/**
 * What a locale file says for translators reaches the model (docs/contract.md §6,
 * docs/models.md "Notes from locale files"): the app with an OpenAI-compatible model
 * behind it (the fake provider over HTTP, which records each prompt) sends gettext `#.`
 * comments and `msgctxt`, XLIFF `<note>`s, properties comments and the keys of short
 * strings (in JSON too) on a `notes:` line with the segment numbers; the notes are charged as input
 * tokens, and a note is part of the translation-memory key.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { echoTranslator, userText } from '../helpers/fake-provider.js';

const notesOf = (text: string): Record<string, string> | undefined => {
  const line = text.split('\n').find((l) => l.startsWith('notes: '));
  return line ? (JSON.parse(line.slice('notes: '.length)) as Record<string, string>) : undefined;
};

describe('notes of locale files with an OpenAI-compatible model behind the API', () => {
  // One call per request: these tests read what reaches the model, not how the planner
  // spreads small requests over the slots (test/translation/plan.test.ts).
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '1' } });

  const { translate } = app;

  test('gettext #. comments and msgctxt reach the model with their entry', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const po = '#. Shown on the checkout page\nmsgctxt "button"\nmsgid "Pay"\nmsgstr ""\n\nmsgid "A long sentence without any note for the translator at all."\nmsgstr ""\n';
    const response = await translate({ content: po, targets: ['de'], format: 'po', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    const prompt = userText(app.provider.requests[0]!);
    assert.deepEqual(notesOf(prompt), { '1': 'Shown on the checkout page | context: button' });
    assert.match(json(response).translations.de, /msgstr "\[de\] Pay"/);
  });

  test('XLIFF notes and the key of a short properties or YAML string reach the model; long strings carry no key', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const xliff = '<xliff version="1.2"><file source-language="en"><body><trans-unit id="8f14e45fceea167a5a36dedd4bea2543"><source>Open</source><note>Verb: opens the file</note></trans-unit></body></file></xliff>';
    await translate({ content: xliff, targets: ['de'], format: 'xliff', memory: false });
    assert.deepEqual(notesOf(userText(app.provider.requests[0]!)), { '1': 'Verb: opens the file' });
    app.provider.requests.length = 0;
    const properties = '# The main button\ncheckout.pay_button=Pay\nhelp.text=This paragraph explains in many words how the checkout works for you.\n';
    await translate({ content: properties, targets: ['de'], format: 'properties', memory: false });
    assert.deepEqual(notesOf(userText(app.provider.requests[0]!)), { '1': 'key: checkout.pay_button | The main button' });
    app.provider.requests.length = 0;
    await translate({ content: 'en:\n  checkout:\n    pay_button: Pay\n', targets: ['de'], format: 'yaml', memory: false });
    assert.deepEqual(notesOf(userText(app.provider.requests[0]!)), { '1': 'key: checkout.pay_button' });
  });

  test("a short JSON value's key reaches the model; a long value's does not, nor a key that is the value", async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const content = JSON.stringify({
      store: { checkout: { pay_button: 'Pay', intro: 'This paragraph explains in many words how the checkout works.' } },
      menu: { items: ['Open file'] },
      Save: 'Save',
    });
    const response = await translate({ content, targets: ['de'], format: 'json', memory: false });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(notesOf(userText(app.provider.requests[0]!)), { '1': 'key: checkout.pay_button', '3': 'key: menu.items' });
    assert.equal(JSON.parse(json(response).translations.de).store.checkout.pay_button, '[de] Pay');
    app.provider.requests.length = 0;
    // The same word under another key is another memory entry: its note is part of the key.
    await translate({ content: JSON.stringify({ nav: { pay_button: 'Pay' } }), targets: ['de'], format: 'json' });
    await translate({ content: JSON.stringify({ nav: { pay_button: 'Pay' } }), targets: ['de'], format: 'json' });
    await translate({ content: JSON.stringify({ nav: { pay_verb: 'Pay' } }), targets: ['de'], format: 'json' });
    assert.equal(app.provider.requests.length, 2, 'the repeat is served from memory, the other key is not');
  });

  test('the same string under another note is another memory entry', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const file = (note: string) => `#. ${note}\nmsgid "Order"\nmsgstr ""\n`;
    await translate({ content: file('A noun: the purchase'), targets: ['fr'], format: 'po' });
    await translate({ content: file('A noun: the purchase'), targets: ['fr'], format: 'po' });
    assert.equal(app.provider.requests.length, 1, 'the second request is served from memory');
    await translate({ content: file('A verb: to sort'), targets: ['fr'], format: 'po' });
    assert.equal(app.provider.requests.length, 2, 'another note is not served the first note\'s translation');
  });
});
