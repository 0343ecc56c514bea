/**
 * Android and ARB files with a model behind the API (CONTRACT §6): the real app over HTTP
 * with an OpenAI-compatible fake provider that records each prompt. The comment before an
 * Android `<string>` and an ARB `@key` description reach the model on the `notes:` line
 * with their segment; a model answer that drops a placeholder (an `<xliff:g>`, a `%1$s`,
 * an ICU `{name}`) is sent back for repair, and the file that comes back has it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { useProviderApp } from '../helpers/provider-app.js';
import { echoTranslator, openaiReply, targetCodes, userMessage, type ReplyScript } from '../helpers/fake-provider.js';

const ANDROID = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Title of the screen that lists the user's files -->
    <string name="files_title">Files</string>
    <string name="welcome">Welcome back, <xliff:g id="user">%1$s</xliff:g>! You have %2$d new messages.</string>
</resources>
`;

const ARB = `{
  "@@locale": "en",
  "openButton": "Open",
  "@openButton": {
    "description": "A verb: opens the selected document"
  },
  "hello": "Hello {name}, welcome to the photo album",
  "@hello": {
    "placeholders": {"name": {"type": "String"}}
  }
}
`;

/** Answers `[code] text`, with every atom mark dropped from the first answer (what a careless model does). */
function droppingFirst(): ReplyScript {
  let calls = 0;
  return (request) => {
    calls++;
    const message = userMessage(request);
    const translations = Object.fromEntries(
      targetCodes(message).map((code) => [code, message.segments.map((text) => (calls === 1 ? `[${code}] ${text.replace(/<x\d+\/>/g, '')}` : `[${code}] ${text}`))]),
    );
    return openaiReply(translations, { input: 50, output: 20 });
  };
}

describe('Android and ARB files with an OpenAI-compatible model behind the API', () => {
  // One call per request: these tests read what reaches the model, not how the planner
  // spreads small requests over the slots (test/translation/plan.test.ts).
  const app = useProviderApp({ env: { ENGINE_CONCURRENCY: '1' } });

  const { translate } = app;

  test('the comment before an Android <string> and an ARB description reach the model with their entry', async () => {
    app.provider.fallback(echoTranslator({ input: 10, output: 10 }));
    const android = await translate({ content: ANDROID, targets: ['de'], format: 'android', memory: false });
    assert.equal(android.statusCode, 200, android.body);
    const notes = userMessage(app.provider.requests[0]!).notes ?? {};
    assert.match(notes['1'] ?? '', /Title of the screen that lists the user's files/);
    assert.equal(notes['2'], undefined, 'a string without a comment and longer than a label has no note');
    app.provider.requests.length = 0;
    const arb = await translate({ content: ARB, targets: ['de'], memory: false });
    assert.equal(arb.statusCode, 200, arb.body);
    assert.equal(json(arb).detected_format ?? json(arb).usage?.detected_format, 'arb');
    assert.match(userMessage(app.provider.requests[0]!).notes?.['1'] ?? '', /A verb: opens the selected document/);
  });

  test('an answer that drops placeholders is repaired; the file keeps <xliff:g>, %2$d and {name}', async () => {
    app.provider.fallback(droppingFirst());
    const android = await translate({ content: ANDROID, targets: ['fr'], format: 'android', memory: false });
    assert.equal(android.statusCode, 200, android.body);
    assert.ok(app.provider.requests.length >= 2, 'a repair call was made');
    assert.ok(userMessage(app.provider.requests[1]!).fix?.length, 'the repair names what was wrong');
    const answer: string = json(android).translations.fr;
    assert.match(answer, /<string name="welcome">\[fr\] Welcome back, <xliff:g id="user">%1\$s<\/xliff:g>! You have %2\$d new messages\.<\/string>/);
    execFileSync('python3', ['-c', 'import sys,xml.etree.ElementTree as E; E.fromstring(sys.stdin.read())'], { input: answer });

    app.provider.requests.length = 0;
    app.provider.fallback(droppingFirst());
    const arb = await translate({ content: ARB, targets: ['pt-BR'], format: 'arb', memory: false });
    assert.equal(arb.statusCode, 200, arb.body);
    const parsed = JSON.parse(json(arb).translations['pt-BR']) as Record<string, string>;
    assert.equal(parsed['@@locale'], 'pt_BR');
    assert.equal(parsed.hello, '[pt-BR] Hello {name}, welcome to the photo album');
  });
});
