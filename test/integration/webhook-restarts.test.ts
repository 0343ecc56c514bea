/**
 * Deliveries outlive the processes that send them, with real processes on both
 * databases: `serve --no-workers` takes the requests, `worker` processes run the jobs and
 * send the webhooks. A worker SIGKILLed in the middle of an attempt leaves the delivery
 * leased; another worker sends it again once the lease lapses, under the same
 * webhook-id. A retry scheduled by a worker that then stops (SIGTERM) is sent by the
 * next one. The receiver checks every signature with the `standardwebhooks` library.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { servicesFor, skipUnless, testBackends, testRateLimitEnv } from '../helpers/backends.js';
import { startServed, type Served } from '../helpers/served.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const CLI = resolve('dist/cli.js');
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_TIMEOUT_SECONDS: '2',
  WEBHOOK_RETRY_BASE_SECONDS: '1',
  JOB_LEASE_SECONDS: '3',
  SHUTDOWN_GRACE_SECONDS: '2',
};

for (const backend of testBackends()) {
  describe(`webhook deliveries across worker restarts on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let served: Served;
    let receiver: WebhookReceiver;
    let auth: string;
    const workers: ChildProcess[] = [];

    before(async () => {
      served = await startServed(backend, ENV);
      receiver = await startWebhookReceiver();
      auth = `Bearer ${(JSON.parse(served.cli('keys', 'create', '--tier', 'scale', '--json')) as { key: string }).key}`;
    });
    after(async () => {
      for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
      await receiver.close();
      await served.close();
    });

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${served.base}${path}`, {
        method,
        headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, body: (await response.json()) as any };
    };

    const startWorker = async (): Promise<{ child: ChildProcess; exited: Promise<void> }> => {
      const child = spawn(process.execPath, [CLI, 'worker', '--no-migrate'], {
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: served.databaseUrl, LOG_LEVEL: 'info', ...testRateLimitEnv(backend), ...ENV },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      workers.push(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      while (!out.includes('worker is running')) {
        if (child.exitCode !== null) throw new Error(`worker exited early:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return { child, exited };
    };

    it('a delivery in flight when its worker is SIGKILLed is sent again by another worker, and a retry survives a restart', async () => {
      const created = await api('POST', '/webhooks', { url: receiver.url, events: ['job.completed'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const { secret, webhook_id: webhookId } = created.body as { secret: string; webhook_id: string };

      // 1. The first attempt never gets an answer: the worker dies waiting for it.
      receiver.script({ hang: true });
      const first = await startWorker();
      const job = await api('POST', '/jobs', { content: 'Deliver me twice if you must', targets: ['fr'] });
      assert.equal(job.status, 202);
      await receiver.waitFor(1, 20_000);
      first.child.kill('SIGKILL');
      await first.exited;

      const second = await startWorker();
      await receiver.waitFor(2, 40_000);
      const [killed, resent] = receiver.received;
      assert.equal(resent!.headers['webhook-id'], killed!.headers['webhook-id'], 'the same message, so the receiver can drop the duplicate');
      const payload = new Webhook(secret).verify(resent!.body, resent!.headers as Record<string, string>) as { type: string; data: { job_id: string; status: string } };
      assert.deepEqual([payload.type, payload.data.job_id, payload.data.status], ['job.completed', job.body.job_id, 'completed']);

      // 2. A retry scheduled (503) by a worker that then stops is sent by the next worker.
      receiver.script({ status: 503 });
      const next = await api('POST', '/jobs', { content: 'Retry me after a restart', targets: ['de'] });
      await receiver.waitFor(3, 20_000);
      second.child.kill('SIGTERM');
      await second.exited;
      assert.equal(second.child.exitCode, 0);
      await startWorker();
      await receiver.waitFor(4, 30_000);
      const [refused, retried] = receiver.received.slice(2);
      assert.equal(retried!.headers['webhook-id'], refused!.headers['webhook-id']);
      const again = new Webhook(secret).verify(retried!.body, retried!.headers as Record<string, string>) as { data: { job_id: string } };
      assert.equal(again.data.job_id, next.body.job_id);

      // The deliveries list tells the same story.
      let deliveries: any[] = [];
      for (let i = 0; i < 50; i++) {
        deliveries = (await api('GET', `/webhooks/${webhookId}/deliveries`)).body.deliveries;
        if (deliveries.every((d) => d.status === 'succeeded')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(
        deliveries.map((d) => [d.job_id, d.status, d.attempts, d.response_status]),
        [
          [next.body.job_id, 'succeeded', 2, 204],
          [job.body.job_id, 'succeeded', 2, 204],
        ],
      );
    });
  });
}
