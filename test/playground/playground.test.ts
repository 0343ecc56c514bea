/**
 * The playground page in a real browser: Debian's chromium driven by playwright-core,
 * against the service listening on a port (real database, the pseudo engine). Under
 * CI=true a missing chromium fails the run (.ci/run installs it); elsewhere the suite is
 * skipped with the reason.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import type { ChunkTranslation, TranslateChunkInput, TranslationEngine } from '../../src/engines/engine.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { pseudo, registryOf } from '../helpers/engines.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: the playground test needs Debian's chromium (apt-get install -y chromium; .ci/run does it)`);
  return `${CHROMIUM} is missing (apt-get install -y chromium)`;
}

/** The pseudo engine's marks removed (docs/contract.md §2). */
function unmark(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f\u202b\u202c]/g, '');
}

describe('the playground at /', { skip: chromiumMissing() }, () => {
  let t: TestApp;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let apiKey: string;
  const profile = mkdtempSync(join(tmpdir(), 'playground-chromium-'));
  const offsite: string[] = [];

  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'memory' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    apiKey = (await t.key('starter')).key;
    // A fresh profile per run: no state from another run or from the machine's user.
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1200, height: 900 } });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) offsite.push(request.url());
    });
    await page.goto(`${base}/`);
    await page.waitForSelector('#targets input[value="ar"]');
  });
  after(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    await t.close();
  });

  it('lists the targets from /v1/languages and keeps the key in the session only', async () => {
    assert.equal(await page.locator('#targets input[name="target"]').count(), 43);
    await page.fill('#key', apiKey);
    await page.dispatchEvent('#key', 'change');
    await page.waitForSelector('#usage:not([hidden])');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('translate-service.api-key')), apiKey);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.ok(!(await page.evaluate(() => document.cookie)).includes(apiKey));
    await page.reload();
    await page.waitForSelector('#targets input[value="ar"]');
    assert.equal(await page.inputValue('#key'), apiKey, 'kept for this tab across a reload');
  });

  it('translates side by side through the pseudo engine, right-to-left targets shown right to left', async () => {
    const source = '# Hello\n\nThe *quick* brown fox.';
    await page.fill('#content', source);
    await page.uncheck('#targets input[value="de"]');
    await page.check('#targets input[value="ar"]');
    await page.click('#translate');
    await page.waitForFunction(() => document.querySelector('#status')!.textContent!.startsWith('Done'));
    const french = await page.textContent('.column[data-target="fr"] pre');
    const arabic = page.locator('.column[data-target="ar"] pre');
    assert.notEqual(french, source);
    assert.equal(unmark(french!), source);
    assert.equal(unmark((await arabic.textContent())!), source);
    assert.equal(await arabic.getAttribute('dir'), 'rtl');
    assert.equal(await page.getAttribute('.column[data-target="fr"] pre', 'dir'), null);
    assert.equal(await page.textContent('.column[data-target="source"] pre'), source);
    assert.match((await page.textContent('#detected'))!, /^Detected format: markdown \(confidence (0|1)\.\d\d\)$/);
    // The usage bar shows what this translation charged against the starter grant.
    const usage = await (await fetch(`${base}/v1/usage`, { headers: { authorization: `Bearer ${apiKey}` } })).json() as { tokens_used: number; tokens_included: number };
    assert.ok(usage.tokens_used > 0);
    await page.waitForFunction((used) => document.querySelector('#usage-text')!.textContent!.includes(used), usage.tokens_used.toLocaleString('en'));
    const width = await page.evaluate(() => parseFloat((document.querySelector('#usage-bar') as HTMLElement).style.width));
    assert.ok(Math.abs(width - (usage.tokens_used / usage.tokens_included) * 100) < 0.1, `bar at ${width}%`);
  });

  it('reads a file dropped on the text area', async () => {
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['Dropped *text*.'], 'notes.md', { type: 'text/markdown' }));
      return transfer;
    });
    await page.dispatchEvent('#drop', 'drop', { dataTransfer: dropped });
    await page.waitForFunction(() => (document.querySelector('#content') as HTMLTextAreaElement).value === 'Dropped *text*.');
    assert.match((await page.textContent('#detected'))!, /notes\.md/);
  });

  it('reads a chosen file, and the chosen format wins over detection', async () => {
    await page.setInputFiles('#file', { name: 'strings.json', mimeType: 'application/json', buffer: Buffer.from('{"save": "Save changes"}') });
    await page.waitForFunction(() => (document.querySelector('#content') as HTMLTextAreaElement).value.includes('Save changes'));
    await page.selectOption('#format', 'json');
    await page.click('#translate');
    await page.waitForFunction(() => document.querySelector('#detected')!.textContent === 'Format: json');
    const french = (await page.textContent('.column[data-target="fr"] pre'))!;
    assert.match(french, /^\{"save": "/);
    assert.equal(unmark(french), '{"save": "Save changes"}');
  });

  it('shows the service\'s error code and message', async () => {
    await page.fill('#key', 'not-a-valid-key');
    await page.dispatchEvent('#key', 'change');
    await page.click('#translate');
    await page.waitForFunction(() => document.querySelector('#status')!.textContent!.startsWith('invalid_api_key'));
    assert.equal(await page.getAttribute('#status', 'class'), 'status error');
  });

  it('renders: a screenshot with the header, the controls and the translated columns drawn', async () => {
    const png = PNG.sync.read(await page.screenshot({ fullPage: false }));
    assert.equal(png.width, 1200);
    const pixel = (x: number, y: number) => {
      const i = (png.width * y + x) * 4;
      return [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    };
    const colours = new Set<string>();
    for (let y = 0; y < png.height; y += 7) for (let x = 0; x < png.width; x += 7) colours.add(pixel(x, y).join(','));
    assert.ok(colours.size > 20, `a drawn page, not a blank one (${colours.size} colours)`);
    // Each region is where the layout puts it, and has ink on it.
    for (const selector of ['header', '.controls', '.column[data-target="fr"]', '.column[data-target="ar"]']) {
      const box = (await page.locator(selector).boundingBox())!;
      assert.ok(box && box.width > 50 && box.height > 20, selector);
      const inside = new Set<string>();
      for (let y = Math.ceil(box.y) + 2; y < Math.min(png.height, box.y + box.height - 2); y += 3) {
        for (let x = Math.ceil(box.x) + 2; x < box.x + box.width - 2; x += 3) inside.add(pixel(x, y).join(','));
      }
      assert.ok(inside.size >= 3, `${selector} has text or borders drawn (${inside.size} colours)`);
    }
    const [r, g, b] = pixel(5, 5);
    assert.ok(r! < 60 && g! < 60 && b! < 70, `the dark header is drawn at the top (${r},${g},${b})`);
  });

  it('loaded nothing from another origin', () => {
    assert.deepEqual(offsite, []);
  });
});

/**
 * The pseudo engine with calls for `slow` held until `release()`, planned one call per target
 * (a small output budget per call), so targets finish at different times.
 */
class OneSlowTarget implements TranslationEngine {
  readonly id = 'one-slow-target';
  readonly budget = { maxInputTokens: 6000, maxOutputTokens: 16384, callOutputTokens: 50, parallelCalls: 4 };
  private readonly inner = pseudo();
  private gate: (() => void) | undefined;
  private readonly opened = new Promise<void>((resolve) => (this.gate = resolve));
  constructor(private readonly slow: string) {}
  async translate(input: TranslateChunkInput): Promise<ChunkTranslation> {
    if (input.targets.some((target) => target.code === this.slow)) await this.opened;
    return this.inner.translate(input);
  }
  release(): void {
    this.gate!();
  }
}

describe('the playground shows targets as they arrive', { skip: chromiumMissing() }, () => {
  let t: TestApp;
  let context: BrowserContext;
  let page: Page;
  const engine = new OneSlowTarget('fr');
  const profile = mkdtempSync(join(tmpdir(), 'playground-chromium-'));

  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_STORE: 'memory' }, engines: registryOf(engine) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1200, height: 900 } });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${base}/`);
    await page.waitForSelector('#targets input[value="ar"]');
    await page.fill('#key', (await t.key('starter')).key);
    await page.dispatchEvent('#key', 'change');
  });
  after(async () => {
    engine.release();
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    await t.close();
  });

  it('fills a target\'s column as soon as it is translated, while a slower target still waits', async () => {
    const source = 'Our support team answers every question within one business day, including weekends and public holidays, and tells you who is looking after your request.';
    await page.fill('#content', source);
    // fr and de are checked by default.
    await page.click('#translate');
    await page.waitForSelector('.column[data-target="de"]:not(.pending)');
    assert.equal(unmark((await page.textContent('.column[data-target="de"] pre'))!), source);
    assert.equal(await page.getAttribute('.column[data-target="fr"]', 'class'), 'column pending');
    assert.equal(await page.textContent('.column[data-target="fr"] pre'), 'translating…');
    assert.equal(await page.textContent('#status'), 'Translating… 1 of 2 targets done.');
    engine.release();
    await page.waitForFunction(() => document.querySelector('#status')!.textContent!.startsWith('Done'));
    assert.equal(unmark((await page.textContent('.column[data-target="fr"] pre'))!), source);
    assert.equal(await page.getAttribute('.column[data-target="fr"]', 'class'), 'column');
  });
});
