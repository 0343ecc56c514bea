/**
 * `translate-service sync` and `translate` as a user runs them: the built CLI in child
 * processes, on a temporary repository with JSON locale files and markdown docs, against
 * a real server (pseudo engine) on each backend. Requests are counted at a proxy in front
 * of the server, not from the command's own output.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { countTokens } from '../helpers/tokenizer.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { freePort } from '../helpers/net.js';
import { runCli, startServedApi, unmark, type RecordedRequest, type Run, type ServedApi } from './served-api.js';

const CONFIG = { source: 'en', targets: ['fr', 'de'], files: ['locales/{locale}.json', 'docs/{locale}/**/*.md'] };

const EN_JSON = `{
  "greeting": "Hello, {name}!",
  "nav": {
    "home": "Home",
    "settings": "Settings"
  },
  "cart": "You have {count, plural, one {# item} other {# items}}",
  "docs_url": "https://example.com/docs",
  "retries": 3
}
`;

const INDEX_MD = `# Welcome

Read the [install guide](guide/install.md) first.
`;

const INSTALL_MD = `# Install

1. Run \`npm install\`.
2. Start the **server**.
`;

const TRANSLATING = /^\/v1\/(translate|translate\/batch|jobs)$/;

/** The requests that ask for a translation (not estimates, not job polls). */
/**
 * The source file as a target must read once its marks are removed: byte for byte the
 * source, but for the plural branches the target's language needs (CONTRACT §5: French
 * adds `many`, written like `other`; German keeps English's `one`/`other`).
 */
function inTargetShape(source: string, target: string): string {
  return target === 'fr' ? source.replace('one {# item} other {# items}', 'one {# item} many {# items} other {# items}') : source;
}

function translationRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.method === 'POST' && TRANSLATING.test(request.url));
}

/** Every source string the requests carried: a JSON content's string values, any other content whole. */
function sentStrings(requests: readonly RecordedRequest[]): string[] {
  return translationRequests(requests).flatMap((request) => {
    const body = JSON.parse(request.body) as { content?: string; format?: string; items?: { content: string; format?: string }[] };
    const contents = body.items ?? [{ content: body.content!, ...(body.format ? { format: body.format } : {}) }];
    return contents.flatMap((item) => (item.format === 'json' ? Object.values(JSON.parse(item.content) as Record<string, string>) : [item.content]));
  });
}

interface Event {
  readonly event: string;
  readonly target?: string;
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly total_tokens?: number;
  readonly cached_segments?: number;
}

/** The lines of a `--json` run. */
function events(stdout: string): Event[] {
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as Event);
}

for (const backend of testBackends()) {
  describe(`sync and translate against a served API (${backend})`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let api: ServedApi;
    let repo: string;
    let env: Record<string, string>;
    const file = (path: string) => readFileSync(join(repo, path), 'utf8');
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    };
    const sync = (...args: string[]): Promise<Run> => runCli(['sync', ...args], { cwd: repo, env });
    /** Runs `work` and answers the requests that reached the server meanwhile. */
    const during = async (work: () => Promise<Run>): Promise<{ run: Run; requests: RecordedRequest[] }> => {
      const from = api.requests.length;
      const run = await work();
      return { run, requests: api.requests.slice(from) };
    };

    before(async () => {
      api = await startServedApi(backend);
      repo = mkdtempSync(join(tmpdir(), 'translate-localize-'));
      env = { TRANSLATE_API_URL: api.apiUrl, TRANSLATE_API_KEY: api.apiKey };
      write('translate.config.json', `${JSON.stringify(CONFIG, null, 2)}\n`);
      write('locales/en.json', EN_JSON);
      write('docs/en/index.md', INDEX_MD);
      write('docs/en/guide/install.md', INSTALL_MD);
    });
    after(async () => {
      await api?.stop();
      if (repo) rmSync(repo, { recursive: true, force: true });
    });

    it('--dry-run on a fresh repository prints an estimate per target from the API, translates nothing and writes nothing', async () => {
      const { run, requests } = await during(() => sync('--dry-run', '--json'));
      assert.equal(run.code, 3, run.stdout + run.stderr);
      assert.deepEqual(translationRequests(requests), []);
      const estimates = events(run.stdout).filter((event) => event.event === 'estimate');
      assert.deepEqual(estimates.map((event) => event.target), ['fr', 'de']);
      for (const estimate of estimates) {
        assert.ok(estimate.total_tokens! > 0, JSON.stringify(estimate));
        assert.equal(estimate.total_tokens, estimate.input_tokens! + estimate.output_tokens!);
        assert.equal(estimate.cached_segments, 0);
      }
      // Each target's estimate is asked of the service, work by work: the proxy saw them.
      assert.ok(requests.length > 0 && requests.every((request) => request.method === 'POST' && request.url === '/v1/translate/estimate'));
      assert.ok(!existsSync(join(repo, 'locales/fr.json')) && !existsSync(join(repo, 'translate.lock')));
    });

    it('a first run translates every string and document into every target, keeping each file\'s layout, and writes the lock', async () => {
      const { run, requests } = await during(() => sync());
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(
        sentStrings(requests).sort(),
        ['Hello, {name}!', 'Home', 'Settings', 'You have {count, plural, one {# item} other {# items}}', 'https://example.com/docs', INDEX_MD, INSTALL_MD].sort(),
      );
      for (const target of ['fr', 'de']) {
        const json = file(`locales/${target}.json`);
        assert.equal(unmark(json), inTargetShape(EN_JSON, target), 'the target is the source with its strings translated, byte for byte otherwise');
        assert.equal((JSON.parse(json) as { greeting: string }).greeting, 'Ĥéļļö, {name}!');
        assert.equal(unmark(file(`docs/${target}/index.md`)), INDEX_MD);
        assert.equal(unmark(file(`docs/${target}/guide/install.md`)), INSTALL_MD);
        assert.notEqual(file(`docs/${target}/guide/install.md`), INSTALL_MD);
      }
      const lock = JSON.parse(file('translate.lock')) as { files: Record<string, Record<string, Record<string, string>>> };
      assert.deepEqual(Object.keys(lock.files).sort(), ['docs/en/guide/install.md', 'docs/en/index.md', 'locales/en.json']);
      assert.deepEqual(Object.keys(lock.files['locales/en.json']!.fr!).sort(), ['/cart', '/docs_url', '/greeting', '/nav/home', '/nav/settings']);
      assert.doesNotMatch(run.stdout, /\x1b\[/, 'no terminal control codes when stdout is not a terminal');
      assert.match(run.stdout, /^fr: \d+\/7 strings$/m);
    });

    it('a second run with nothing changed makes no request at all and writes nothing', async () => {
      const before = ['locales/fr.json', 'translate.lock', 'docs/de/index.md'].map(file);
      const { run, requests } = await during(() => sync());
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(requests, []);
      assert.match(run.stdout, /up to date/);
      assert.deepEqual(['locales/fr.json', 'translate.lock', 'docs/de/index.md'].map(file), before);
    });

    it('one changed key sends that one string, once for both targets, and changes only its line', async () => {
      const frBefore = file('locales/fr.json');
      write('locales/en.json', EN_JSON.replace('"Home"', '"Start page"'));
      const { run, requests } = await during(() => sync());
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(translationRequests(requests).length, 1);
      assert.deepEqual(sentStrings(requests), ['Start page']);
      const fr = file('locales/fr.json');
      assert.equal((JSON.parse(fr) as { nav: { home: string } }).nav.home, 'Šţáŕţ ṗáĝé');
      assert.equal(fr, frBefore.replace('"Ĥöṁé"', '"Šţáŕţ ṗáĝé"'));
    });

    it('a key removed from the source is removed from every target and from the lock, without a request', async () => {
      const source = file('locales/en.json').replace('    "home": "Start page",\n    "settings": "Settings"\n', '    "home": "Start page"\n');
      assert.ok(!source.includes('Settings'));
      write('locales/en.json', source);
      const { run, requests } = await during(() => sync());
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(requests, []);
      for (const target of ['fr', 'de']) {
        assert.equal(unmark(file(`locales/${target}.json`)), inTargetShape(source, target));
      }
      const lock = JSON.parse(file('translate.lock')) as { files: Record<string, Record<string, Record<string, string>>> };
      assert.ok(!('/nav/settings' in lock.files['locales/en.json']!.de!));
    });

    it('a translation edited by hand is kept while its source is unchanged, and retranslated when the source changes', async () => {
      write('locales/fr.json', file('locales/fr.json').replace('"Ĥéļļö, {name}!"', '"Bonjour, {name} !"'));
      const kept = await during(() => sync());
      assert.equal(kept.run.code, 0, kept.run.stdout + kept.run.stderr);
      assert.deepEqual(kept.requests, []);
      assert.equal((JSON.parse(file('locales/fr.json')) as { greeting: string }).greeting, 'Bonjour, {name} !');

      write('locales/en.json', file('locales/en.json').replace('"Hello, {name}!"', '"Hi, {name}!"'));
      const changed = await during(() => sync());
      assert.equal(changed.run.code, 0, changed.run.stdout + changed.run.stderr);
      assert.deepEqual(sentStrings(changed.requests), ['Hi, {name}!']);
      assert.equal((JSON.parse(file('locales/fr.json')) as { greeting: string }).greeting, 'Ĥí, {name}!');
    });

    it('--frozen exits 3 naming what is stale and sends nothing; after a sync it exits 0', async () => {
      write('docs/en/index.md', INDEX_MD.replace('first.', 'before anything else.'));
      const before = file('docs/fr/index.md');
      const frozen = await during(() => sync('--frozen'));
      assert.equal(frozen.run.code, 3, frozen.run.stdout + frozen.run.stderr);
      assert.deepEqual(frozen.requests, []);
      assert.match(frozen.run.stdout, /stale docs\/fr\/index\.md \[fr\]/);
      assert.match(frozen.run.stdout, /stale docs\/de\/index\.md \[de\]/);
      assert.equal(file('docs/fr/index.md'), before);

      assert.equal((await sync()).code, 0);
      const passing = await during(() => sync('--frozen'));
      assert.equal(passing.run.code, 0, passing.run.stdout + passing.run.stderr);
      assert.deepEqual(passing.requests, []);
      assert.equal(unmark(file('docs/fr/index.md')), INDEX_MD.replace('first.', 'before anything else.'));
    });

    it('--dry-run prints what would be sent, sends no translation request and writes nothing', async () => {
      write('locales/en.json', file('locales/en.json').replace('"retries": 3', '"retries": 3,\n  "farewell": "Goodbye"'));
      const lockBefore = file('translate.lock');
      const frBefore = file('locales/fr.json');
      const dry = await during(() => sync('--dry-run'));
      assert.equal(dry.run.code, 3, dry.run.stdout + dry.run.stderr);
      assert.deepEqual(translationRequests(dry.requests), []);
      assert.match(dry.run.stdout, /would send locales\/en\.json -> fr, de \(json, 1 string: \/farewell/);
      assert.equal(file('translate.lock'), lockBefore);
      assert.equal(file('locales/fr.json'), frBefore);

      const json = await during(() => sync('--dry-run', '--json'));
      assert.equal(json.run.code, 3);
      assert.deepEqual(translationRequests(json.requests), []);
      const events = json.run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; strings?: string[]; targets?: string[]; exit_code?: number });
      // The estimate covers that one key: the pseudo engine's input is the segment's own tokens.
      const estimates = json.run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Event).filter((event) => event.event === 'estimate');
      assert.deepEqual(estimates.map(({ target, input_tokens }) => ({ target, input_tokens })), [
        { target: 'fr', input_tokens: countTokens('Goodbye') },
        { target: 'de', input_tokens: countTokens('Goodbye') },
      ]);
      assert.deepEqual(json.requests.map((request) => request.url), ['/v1/translate/estimate', '/v1/translate/estimate']);
      assert.match(dry.run.stdout, /^estimate fr: \d+ tokens \(\d+ in, \d+ out\), 0 from memory$/m);
      assert.deepEqual(
        events.filter((event) => event.event === 'would_send').map(({ strings, targets }) => ({ strings, targets })),
        [{ strings: ['/farewell'], targets: ['fr', 'de'] }],
      );
      assert.equal(events.at(-1)!.event, 'done');
      assert.equal(events.at(-1)!.exit_code, 3);
      assert.equal((await sync()).code, 0);
    });

    it('a source document removed takes its target documents with it', async () => {
      unlinkSync(join(repo, 'docs/en/guide/install.md'));
      const { run, requests } = await during(() => sync('--json'));
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(requests, []);
      assert.ok(!existsSync(join(repo, 'docs/fr/guide/install.md')) && !existsSync(join(repo, 'docs/de/guide/install.md')));
      assert.ok(existsSync(join(repo, 'docs/fr/index.md')));
      assert.ok(!file('translate.lock').includes('install.md'));
      assert.equal((await sync('--frozen')).code, 0);
    });

    it('a sync with nothing to do loads neither Fastify nor a database driver', async () => {
      const hook = pathToFileURL(join(process.cwd(), 'test/helpers/record-resolves.mjs')).href;
      const record = `data:text/javascript,import { register } from 'node:module'; register(${JSON.stringify(hook)});`;
      const run = await runCli(['sync'], { cwd: repo, env, nodeArgs: ['--import', record] });
      assert.equal(run.code, 0, run.stderr);
      const loaded = run.stderr.split('\n').filter((line) => line.startsWith('resolved '));
      assert.ok(loaded.some((line) => line.endsWith('/dist/localize/sync.js')), 'the hook saw the sync module load');
      assert.deepEqual(loaded.filter((line) => /\/node_modules\/(fastify|@fastify\/|better-sqlite3|pg|kysely|ioredis)\//.test(line)), []);
    });

    it('translate writes one file per target in the file\'s format, and a large file goes through a job with its progress shown', async () => {
      write('notes.md', INSTALL_MD);
      write('data.json', '{"title": "Release notes", "version": "2.1.0"}\n');
      const small = await during(() => runCli(['translate', 'notes.md', 'data.json', '--to', 'fr,de', '--out', 'out'], { cwd: repo, env }));
      assert.equal(small.run.code, 0, small.run.stdout + small.run.stderr);
      assert.equal(translationRequests(small.requests).length, 2);
      assert.equal(unmark(file('out/de/notes.md')), INSTALL_MD);
      assert.equal(file('out/fr/data.json'), '{"title": "Ŕéļéášé ñöţéš", "version": "2.1.0"}\n');

      write('CHANGES', '# Changes\n\n- Faster *sync*\n');
      const detected = await during(() => runCli(['translate', 'CHANGES', '--to', 'it', '--concurrency', '1'], { cwd: repo, env }));
      assert.equal(detected.run.code, 0, detected.run.stdout + detected.run.stderr);
      assert.ok(!('format' in (JSON.parse(translationRequests(detected.requests)[0]!.body) as object)), 'no extension: the API detects the format');
      assert.equal(file('CHANGES.it'), '# Çĥáñĝéš\n\n- Ḟášţéŕ *šýñç*\n');

      write('one.md', 'Good night\n');
      const inPlace = await runCli(['translate', 'one.md', '--to', 'es', '--in-place'], { cwd: repo, env });
      assert.equal(inPlace.code, 0, inPlace.stderr);
      assert.equal(unmark(file('one.md')), 'Good night\n');
      assert.notEqual(file('one.md'), 'Good night\n');
      const twoTargets = await runCli(['translate', 'one.md', '--to', 'es,fr', '--in-place'], { cwd: repo, env });
      assert.equal(twoTargets.code, 1);
      assert.match(twoTargets.stderr, /--in-place needs exactly one target/);

      write('page.html', '<p>Hello <b>world</b></p>\n');
      const job = await during(() => runCli(['translate', 'page.html', '--to', 'fr', '--job-above', '0', '--json'], { cwd: repo, env }));
      assert.equal(job.run.code, 0, job.run.stdout + job.run.stderr);
      assert.deepEqual(translationRequests(job.requests).map((request) => request.url), ['/v1/jobs']);
      const events = job.run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; status?: string; job_id?: string });
      const jobEvents = events.filter((event) => event.event === 'job');
      assert.equal(jobEvents.at(-1)!.status, 'completed');
      assert.ok(job.requests.some((request) => request.method === 'GET' && request.url === `/v1/jobs/${jobEvents[0]!.job_id}`));
      assert.equal(file('page.fr.html'), '<p>Ĥéļļö <b>ŵöŕļḋ</b></p>\n');
    });

    it('the glossary_id of translate.config.json reaches the service, and the target shows the glossary\'s term', async () => {
      const created = await fetch(`${api.apiUrl}/glossaries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Product', source: 'en', entries: [{ term: 'account', translations: { fr: 'compte' } }] }),
      });
      assert.equal(created.status, 201);
      const { glossary_id: glossaryId } = (await created.json()) as { glossary_id: string };
      const other = mkdtempSync(join(tmpdir(), 'translate-localize-glossary-'));
      try {
        writeFileSync(join(other, 'translate.config.json'), JSON.stringify({ source: 'en', targets: ['fr'], files: ['locales/{locale}.json'], glossary_id: glossaryId }));
        mkdirSync(join(other, 'locales'));
        writeFileSync(join(other, 'locales/en.json'), '{"open": "Open your account"}\n');
        const from = api.requests.length;
        const run = await runCli(['sync'], { cwd: other, env });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const sent = translationRequests(api.requests.slice(from));
        assert.ok(sent.length > 0 && sent.every((request) => (JSON.parse(request.body) as { glossary_id?: string }).glossary_id === glossaryId));
        const fr = JSON.parse(readFileSync(join(other, 'locales/fr.json'), 'utf8')) as { open: string };
        // The pseudo engine writes the glossary's translation unmarked and pseudo-localizes the rest.
        assert.match(fr.open, /compte/);
        assert.equal(unmark(fr.open.replace('compte', 'account')), 'Open your account');
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it('fails with exit 1 and a clear message on a bad config, a missing key or an unreachable API', async () => {
      const broken = mkdtempSync(join(tmpdir(), 'translate-localize-bad-'));
      try {
        writeFileSync(join(broken, 'translate.config.json'), JSON.stringify({ source: 'en', targets: ['fr', 'xx'], files: ['locales/{locale}.json'] }));
        const badConfig = await runCli(['sync'], { cwd: broken, env });
        assert.equal(badConfig.code, 1);
        assert.match(badConfig.stderr, /"targets"\[1\] must be a language code/);

        writeFileSync(join(broken, 'translate.config.json'), JSON.stringify({ source: 'en', targets: ['fr'], files: ['locales/{locale}.json'] }));
        mkdirSync(join(broken, 'locales'));
        writeFileSync(join(broken, 'locales/en.json'), '{"a": "Apple"}\n');
        const noKey = await runCli(['sync'], { cwd: broken, env: { TRANSLATE_API_URL: api.apiUrl } });
        assert.equal(noKey.code, 1);
        assert.match(noKey.stderr, /TRANSLATE_API_KEY/);

        const closed = await freePort();
        const unreachable = await runCli(['sync', '--api-url', `http://127.0.0.1:${closed}/v1`], { cwd: broken, env });
        assert.equal(unreachable.code, 1);
        assert.match(unreachable.stderr, /could not reach http:\/\/127\.0\.0\.1:\d+\/v1/);
        assert.ok(!existsSync(join(broken, 'locales/fr.json')) && !existsSync(join(broken, 'translate.lock')), 'a failed run writes nothing');
      } finally {
        rmSync(broken, { recursive: true, force: true });
      }
    });
  });
}

