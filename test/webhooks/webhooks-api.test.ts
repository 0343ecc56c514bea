/**
 * /v1/webhooks on both backends through the real app, and deliveries end to end: a real
 * JobWorker finishes jobs, a real WebhookSender posts the events over HTTP to a local
 * receiver (WEBHOOK_ALLOW_PRIVATE=true), and the receiver checks every signature with the
 * `standardwebhooks` library. Bad input everywhere is a 4xx in the envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { EngineRegistry } from '../../src/engines/registry.js';
import { finishedJobView } from '../../src/jobs/view.js';
import type { JobWorker } from '../../src/jobs/worker.js';
import { WebhookSender, type EventData } from '../../src/webhooks/sender.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { testJobWorker } from '../helpers/job-worker.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { FailingEngine, pseudo, registryOf } from '../helpers/engines.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const MAX_PER_USER = 5;

for (const backend of testBackends()) {
  describe(`webhooks on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    before(async () => {
      t = await startTestApp({
        backend,
        env: { RATE_LIMIT_STORE: 'none', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_MAX_PER_USER: String(MAX_PER_USER), WEBHOOK_TIMEOUT_SECONDS: '2' },
      });
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await t.close();
      await receiver.close();
    });

    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, auth?: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: auth ? { authorization: auth } : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });
    const register = (auth: string, payload: unknown) => call('POST', '/v1/webhooks', auth, payload);

    function workerFor(engines: EngineRegistry = registryOf(pseudo())): JobWorker {
      return testJobWorker(t.services, { engines, pollIntervalMs: 50 });
    }

    function senderFor(retryBaseMs = 50, eventData: EventData = (_event, jobId) => finishedJobView(t.services.database.db, jobId)): WebhookSender {
      return new WebhookSender({
        db: t.services.database.db,
        config: Object.assign({}, t.services.config.webhooks, { retryBaseMs, retryMaxIntervalMs: 200, maxAttempts: 3 }),
        eventData,
        logger: t.services.logger,
        clock: Date.now,
        retentionMs: 24 * 3600_000,
        pollIntervalMs: 50,
        // No jitter: with ±25 % on 50 and 100 ms waits and a 50 ms poll on top, a loaded
        // machine could see the second wait shorter than the first.
        random: () => 0.5,
      });
    }

    it('registers an endpoint and shows its Standard Webhooks secret once; GET lists and reads it without; DELETE removes it', async () => {
      const owner = await t.key('growth');
      const created = await register(owner.auth, { url: receiver.url, events: ['job.completed', 'job.failed'] });
      assert.equal(created.statusCode, 201, created.body);
      const body = json(created);
      assert.deepEqual(Object.keys(body).sort(), ['created_at', 'events', 'secret', 'url', 'webhook_id']);
      assert.match(body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(body.url, receiver.url);

      const listed = json(await call('GET', '/v1/webhooks', owner.auth));
      assert.deepEqual(listed.webhooks, [{ webhook_id: body.webhook_id, url: receiver.url, events: ['job.completed', 'job.failed'], created_at: body.created_at }]);
      assert.deepEqual(json(await call('GET', `/v1/webhooks/${body.webhook_id}`, owner.auth)), listed.webhooks[0]);

      const stranger = await t.key('growth');
      assert.equal((await call('GET', `/v1/webhooks/${body.webhook_id}`, stranger.auth)).statusCode, 404);
      assert.equal((await call('DELETE', `/v1/webhooks/${body.webhook_id}`, stranger.auth)).statusCode, 404);
      assert.deepEqual(json(await call('GET', '/v1/webhooks', stranger.auth)).webhooks, []);

      assert.equal((await call('DELETE', `/v1/webhooks/${body.webhook_id}`, owner.auth)).statusCode, 204);
      assert.equal((await call('GET', `/v1/webhooks/${body.webhook_id}`, owner.auth)).statusCode, 404);
      assert.equal((await call('DELETE', `/v1/webhooks/${body.webhook_id}`, owner.auth)).statusCode, 404);
    });

    it('bad bodies are 400 invalid_request with a message that says what is wrong', async () => {
      const owner = await t.key('growth');
      for (const [payload, message] of [
        [{ url: 'not a url', events: ['job.completed'] }, /not a valid absolute URL/],
        [{ url: 'ftp://example.com/', events: ['job.completed'] }, /http or https/],
        [{ url: receiver.url, events: ['job.finished'] }, /unknown event "job.finished"; events are job.completed, job.failed, job.canceled/],
        [{ url: receiver.url, events: [] }, /events must be a non-empty array/],
        [{ url: receiver.url, events: 'job.completed' }, /events must be a non-empty array/],
        [{ url: receiver.url, events: [42] }, /unknown event a non-string/],
        [{ url: receiver.url, events: ['job.failed', 'job.failed'] }, /must not repeat/],
        [{ url: receiver.url }, /events must be/],
        [{ events: ['job.failed'] }, /url must be a non-empty string/],
        [{ url: 42, events: ['job.failed'] }, /url must be a non-empty string/],
        [{ url: receiver.url, events: ['job.failed'], secret: 'mine' }, /unknown field "secret"/],
        [[receiver.url], /must be a JSON object/],
        [{ url: `https://example.com/${'a'.repeat(3000)}`, events: ['job.failed'] }, /at most 2000 characters/],
      ] as const) {
        const response = await register(owner.auth, payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`);
        assert.equal(json(response).error, 'invalid_request');
        assert.match(json(response).message, message);
      }
      const empty = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { authorization: owner.auth } });
      assert.equal(empty.statusCode, 400);
      assert.equal((await call('GET', '/v1/webhooks/not-a-uuid/deliveries', owner.auth)).statusCode, 404);
      assert.equal((await call('GET', '/v1/webhooks')).statusCode, 401);
    });

    it(`a user past the cap of ${MAX_PER_USER} endpoints gets 409 webhook_limit_reached, however many are asked for at once`, async () => {
      const owner = await t.key('growth');
      const answers = await Promise.all(
        Array.from({ length: MAX_PER_USER * 3 }, () => register(owner.auth, { url: receiver.url, events: ['job.completed'] })),
      );
      assert.equal(answers.filter((a) => a.statusCode === 201).length, MAX_PER_USER);
      const refused = answers.filter((a) => a.statusCode !== 201);
      assert.ok(refused.every((a) => a.statusCode === 409 && json(a).error === 'webhook_limit_reached'), refused[0]?.body);
      assert.match(json(refused[0]!).message, new RegExp(`at most ${MAX_PER_USER} webhooks`));
      assert.equal(json(await call('GET', '/v1/webhooks', owner.auth)).webhooks.length, MAX_PER_USER);
    });

    it('without WEBHOOK_ALLOW_PRIVATE, http and private or metadata addresses are refused at registration', async () => {
      const strict = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      try {
        const owner = await strict.key('growth');
        for (const url of [receiver.url, 'https://127.0.0.1/hook', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://localhost/x', 'https://10.0.0.1/']) {
          const response = await strict.app.inject({ method: 'POST', url: '/v1/webhooks', headers: { authorization: owner.auth }, payload: { url, events: ['job.failed'] } });
          assert.equal(response.statusCode, 400, url);
          assert.equal(json(response).error, 'invalid_request');
        }
      } finally {
        await strict.close();
      }
    });

    it('a completed, a failed and a canceled job each reach the endpoint signed, with the job as GET /v1/jobs/{id} shows it', async () => {
      const owner = await t.key('growth');
      const secret = json(await register(owner.auth, { url: receiver.url, events: ['job.completed', 'job.failed', 'job.canceled'] })).secret as string;
      const onlyFailed = await t.key('growth');
      await register(onlyFailed.auth, { url: receiver.url, events: ['job.failed'] });
      const submit = async (auth: string) =>
        json(await call('POST', '/v1/jobs', auth, { content: 'Hello, webhooks', targets: ['fr'] })).job_id as string;

      const before = receiver.received.length;
      const canceledId = await submit(owner.auth);
      assert.equal((await call('DELETE', `/v1/jobs/${canceledId}`, owner.auth)).statusCode, 200);
      const completedId = await submit(owner.auth);
      const ignored = await submit(onlyFailed.auth);
      const worker = workerFor();
      const sender = senderFor();
      for (const event of ['job:complete', 'job:fail', 'job:cancel']) worker.on(event, () => sender.nudge());
      await worker.start();
      await sender.start();
      await receiver.waitFor(before + 2);
      const failing = workerFor(registryOf(new FailingEngine('the model refused', false)));
      await worker.stop(1_000);
      const failedId = await submit(owner.auth);
      await failing.start();
      await receiver.waitFor(before + 3);
      await failing.stop(1_000);
      await sender.close(1_000);
      await new Promise((r) => setTimeout(r, 200));
      const hooks = receiver.received.slice(before);
      assert.equal(hooks.length, 3, 'the other user subscribed only to job.failed: their completed job sent nothing');

      const byJob = new Map<string, { type: string; timestamp: string; data: { job_id: string } }>();
      for (const hook of hooks) {
        const verified = new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as { type: string; timestamp: string; data: { job_id: string } };
        assert.match(String(hook.headers['webhook-id']), /^msg_/);
        byJob.set(verified.data.job_id, verified);
      }
      assert.ok(!byJob.has(ignored));
      assert.deepEqual([byJob.get(canceledId)?.type, byJob.get(completedId)?.type, byJob.get(failedId)?.type], ['job.canceled', 'job.completed', 'job.failed']);
      for (const id of [canceledId, completedId, failedId]) {
        const shown = json(await call('GET', `/v1/jobs/${id}`, owner.auth));
        assert.deepEqual(byJob.get(id)!.data, shown, `the ${shown.status} job's data is its view`);
        assert.match(byJob.get(id)!.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
      assert.equal(JSON.stringify(byJob.get(completedId)!.data).includes('Ĥéļļö'), true, 'the translations travel in the event');
    });

    it('a failing endpoint is retried with backoff under the same webhook-id, and the deliveries list shows each outcome', async () => {
      const owner = await t.key('growth');
      const created = json(await register(owner.auth, { url: receiver.url, events: ['job.completed'] }));
      const before = receiver.received.length;
      receiver.script({ status: 500 }, { status: 503, delayMs: 10 });
      const id = json(await call('POST', '/v1/jobs', owner.auth, { content: 'Retry me', targets: ['de'] })).job_id as string;
      const worker = workerFor();
      const sender = senderFor();
      const sent = new Promise<string>((resolve) => sender.once('delivery:sent', resolve));
      await worker.start();
      await sender.start();
      const deliveryId = await sent;
      await worker.stop(1_000);
      await sender.close(1_000);

      const attempts = receiver.received.slice(before);
      assert.equal(attempts.length, 3);
      assert.deepEqual(new Set(attempts.map((a) => a.headers['webhook-id'])), new Set([deliveryId]));
      assert.ok(attempts[2]!.at - attempts[1]!.at >= attempts[1]!.at - attempts[0]!.at - 20, 'the waits do not shrink');
      for (const attempt of attempts) new Webhook(created.secret).verify(attempt.body, attempt.headers as Record<string, string>);

      const page = json(await call('GET', `/v1/webhooks/${created.webhook_id}/deliveries`, owner.auth));
      assert.equal(page.deliveries.length, 1);
      const [delivery] = page.deliveries;
      assert.equal(delivery.delivery_id, deliveryId);
      assert.equal(delivery.job_id, id);
      assert.deepEqual([delivery.status, delivery.attempts, delivery.response_status, delivery.error], ['succeeded', 3, 204, null]);
      assert.equal(page.next_cursor, null);
      for (const query of ['?limit=0', '?limit=x', '?cursor=%25%25']) {
        const bad = await call('GET', `/v1/webhooks/${created.webhook_id}/deliveries${query}`, owner.auth);
        assert.equal(bad.statusCode, 400, query);
        assert.equal(json(bad).error, 'invalid_request');
      }
    });

    it('an endpoint that keeps failing ends failed after the configured attempts, with the last answer kept', async () => {
      const owner = await t.key('growth');
      const created = json(await register(owner.auth, { url: receiver.url.replace('/hooks', '/gone'), events: ['job.completed'] }));
      receiver.script({ status: 410 }, { status: 410 }, { status: 410 });
      await call('POST', '/v1/jobs', owner.auth, { content: 'Nobody listens', targets: ['de'] });
      const worker = workerFor();
      const sender = senderFor();
      const failed = new Promise<string>((resolve) => sender.once('delivery:failed', resolve));
      await worker.start();
      await sender.start();
      await failed;
      await worker.stop(1_000);
      await sender.close(1_000);
      const [delivery] = json(await call('GET', `/v1/webhooks/${created.webhook_id}/deliveries`, owner.auth)).deliveries;
      assert.deepEqual([delivery.status, delivery.attempts, delivery.response_status, delivery.error, delivery.next_attempt_at], ['failed', 3, 410, 'answered 410', null]);
    });

    it('an event whose job is gone fails its delivery; a sender that lost the delivery meanwhile neither records nor reports it', async () => {
      const owner = await t.key('growth');
      const created = json(await register(owner.auth, { url: receiver.url, events: ['job.completed'] }));
      const db = t.services.database.db;
      const stolen = json(await call('POST', '/v1/jobs', owner.auth, { content: 'Taken over', targets: ['de'] })).job_id as string;
      const gone = json(await call('POST', '/v1/jobs', owner.auth, { content: 'Gone', targets: ['de'] })).job_id as string;
      let taken!: () => void;
      const takenOver = new Promise<void>((resolve) => (taken = resolve));
      // Both jobs read as gone; while the first one's data is read, another sender takes its delivery over.
      const sender = senderFor(50, async (_event, jobId) => {
        if (jobId === stolen) {
          await db.updateTable('webhook_deliveries').set({ locked_by: 'another-sender' }).where('subject_id', '=', stolen).execute();
          taken();
        }
        return undefined;
      });
      const failed: string[] = [];
      sender.on('delivery:failed', (id: string) => failed.push(id));
      const worker = workerFor();
      await worker.start();
      await sender.start();
      await takenOver;
      const deliveries = async () => json(await call('GET', `/v1/webhooks/${created.webhook_id}/deliveries`, owner.auth)).deliveries as { job_id: string; delivery_id: string; status: string; error: string | null }[];
      while (!(await deliveries()).some((d) => d.job_id === gone && d.status === 'failed')) await new Promise((resolve) => setTimeout(resolve, 20));
      await worker.stop(1_000);
      await sender.close(1_000);
      const byJob = new Map((await deliveries()).map((d) => [d.job_id, d]));
      assert.deepEqual([byJob.get(gone)!.status, byJob.get(gone)!.error], ['failed', 'the job this event is about no longer exists']);
      assert.equal(byJob.get(stolen)!.status, 'sending', 'the other sender holds it still');
      assert.deepEqual(failed, [byJob.get(gone)!.delivery_id], 'only the delivery this sender held is reported failed');
    });
  });
}
