/**
 * The detected source reaches the model as its `source:` line when the detector is
 * confident (docs/decisions/0026), and is left out when it is not — read from the request
 * the OpenAI-compatible engine sends to the fake provider, through the real app.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { json } from '../helpers/app.js';
import { echoTranslator, userMessage } from '../helpers/fake-provider.js';
import { useProviderApp } from '../helpers/provider-app.js';

describe('the detected source as the model\'s hint', () => {
  const app = useProviderApp({ fallback: echoTranslator({ input: 10, output: 10 }) });

  const translate = async (payload: object) => {
    const response = await app.t.app.inject({ method: 'POST', url: '/v1/translate', headers: { authorization: app.auth }, payload });
    assert.equal(response.statusCode, 200, response.body);
    return json(response);
  };

  test('a confident detection is sent as the source line', async () => {
    const body = await translate({ content: 'Der Hund läuft schnell über die grüne Wiese.', targets: ['fr'] });
    assert.ok(body.usage.source_confidence >= 0.6, String(body.usage.source_confidence));
    assert.equal(app.provider.requests.length, 1);
    assert.equal(userMessage(app.provider.requests[0]!).source, 'German (de)');
  });

  test('a weak detection is reported but not sent: the model identifies the language itself', async () => {
    const body = await translate({ content: 'Save', targets: ['fr'] });
    assert.ok(body.usage.source_confidence < 0.6, String(body.usage.source_confidence));
    assert.equal(userMessage(app.provider.requests[0]!).source, undefined);
  });

  test('a named source is sent as given, with nothing detected', async () => {
    const body = await translate({ content: 'Der Hund läuft.', targets: ['fr'], source: 'de' });
    assert.equal(body.usage.detected_source, undefined);
    assert.equal(userMessage(app.provider.requests[0]!).source, 'German (de)');
  });
});
