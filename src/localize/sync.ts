/**
 * `translate-service sync`: brings every target file of translate.config.json up to date
 * and pays only for what changed (plan.ts has the rules, decision 0029). Order of work:
 * plan from files and lock without a request; stop there when nothing is to do, or for
 * `--frozen` / `--dry-run`; otherwise write what needs no translation, send the rest, and
 * write each target whose strings all came back. The lock is written last, and only for
 * targets that were written, so a failed run keeps what it paid for and a rerun sends
 * only what is still missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LocalizeApi, Translated, Usage } from './api.js';
import { ExitCode } from './exit-codes.js';
import { removeFile, writeFileAtomic } from './fs-write.js';
import { formatLockfile, LOCK_FILE, readLockfile, type LockFiles } from './lockfile.js';
import { lockAfter, planSync, renderTarget, type SyncPlan, type TargetPlan } from './plan.js';
import type { Report } from './progress.js';
import { readProjectConfig } from './project-config.js';
import { gatherWork, planCalls, readTranslation, type Call, type Work } from './requests.js';
import { runLimited } from './run-limited.js';

export interface SyncOptions {
  /** Path of translate.config.json; its folder is the project root and holds the lock. */
  readonly configPath: string;
  readonly mode: 'write' | 'frozen' | 'dry-run';
  readonly concurrency: number;
  /** Files (their strings to send) larger than this many characters go through jobs. */
  readonly jobAbove: number;
  /** Created only when a request is to be made, so a run with nothing to do needs no key. */
  readonly api: () => LocalizeApi;
  readonly report: Report;
}

interface Totals {
  stringsSent: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedSegments: number;
}

export async function sync(options: SyncOptions): Promise<ExitCode> {
  const { report } = options;
  const config = readProjectConfig(options.configPath);
  const root = dirname(options.configPath);
  const lockPath = join(root, LOCK_FILE);
  const lockBefore = readLockfile(lockPath);
  const plan = planSync(root, config, lockBefore);
  const totals: Totals = { stringsSent: 0, requests: 0, inputTokens: 0, outputTokens: 0, cachedSegments: 0 };
  const done = (status: string, exitCode: ExitCode): ExitCode => {
    report({
      event: 'done',
      status,
      exit_code: exitCode,
      strings_sent: totals.stringsSent,
      requests: totals.requests,
      input_tokens: totals.inputTokens,
      output_tokens: totals.outputTokens,
      cached_segments: totals.cachedSegments,
    });
    return exitCode;
  };

  const stale = staleness(root, plan, lockBefore, lockPath);
  if (stale.length === 0) return done('up to date', ExitCode.ok);
  if (options.mode === 'frozen') {
    for (const event of stale) report(event);
    return done('stale', ExitCode.stale);
  }
  const works = gatherWork(plan.targets);
  const calls = planCalls(works, options.jobAbove);
  if (options.mode === 'dry-run') {
    for (const event of stale) report(event);
    await dryRun(calls, options, config);
    return done('stale', ExitCode.stale);
  }

  // What needs no translation: removed strings, kept strings re-laid out, gone files.
  const lockAfterRun: LockFiles = {};
  const setLock = (targetPlan: TargetPlan, translated: ReadonlyMap<string, string>) => {
    (lockAfterRun[targetPlan.file.path] ??= {})[targetPlan.target] = lockAfter(targetPlan, translated);
  };
  for (const targetPlan of plan.targets) {
    if (targetPlan.toSend.length > 0) continue;
    writeTarget(root, targetPlan, new Map(), report);
    setLock(targetPlan, new Map());
  }
  for (const gone of plan.removedFiles) {
    if (existsSync(join(root, gone.targetPath))) {
      removeFile(join(root, gone.targetPath));
      report({ event: 'removed', path: gone.targetPath });
    }
  }

  const failed = await send(calls, options, config, totals, (work, translations) => {
    // Every target read before any is written: an answer that cannot be read fails the work whole.
    const read = work.plans.map((targetPlan) => [targetPlan, readTranslation(work, targetPlan.target, translations[targetPlan.target])] as const);
    for (const [targetPlan, translated] of read) {
      writeTarget(root, targetPlan, translated, report);
      setLock(targetPlan, translated);
    }
  });
  // A target whose request failed keeps what the lock said of it.
  for (const work of failed) {
    for (const targetPlan of work.plans) {
      const before = lockBefore[targetPlan.file.path]?.[targetPlan.target];
      if (before !== undefined) (lockAfterRun[targetPlan.file.path] ??= {})[targetPlan.target] = before;
    }
  }
  const lockText = formatLockfile(lockAfterRun);
  const lockChanged = existsSync(lockPath) ? readFileSync(lockPath, 'utf8') !== lockText : Object.keys(lockAfterRun).length > 0;
  if (lockChanged) {
    writeFileAtomic(lockPath, lockText);
    report({ event: 'written', path: LOCK_FILE });
  }
  if (failed.length > 0) return done('failed', ExitCode.error);
  return done('updated', ExitCode.updated);
}

function writeTarget(root: string, targetPlan: TargetPlan, translated: ReadonlyMap<string, string>, report: Report): void {
  const text = renderTarget(targetPlan, translated);
  if (text === undefined || text === targetPlan.existing) return;
  writeFileAtomic(join(root, targetPlan.targetPath), text);
  report({ event: 'written', path: targetPlan.targetPath });
}

/** Why the files or the lock are not what a sync would leave, one event per target file; none when up to date. */
function staleness(root: string, plan: SyncPlan, lockBefore: LockFiles, lockPath: string): Extract<Parameters<Report>[0], { event: 'stale' }>[] {
  const events: Extract<Parameters<Report>[0], { event: 'stale' }>[] = [];
  const lockAfterPlan: LockFiles = {};
  for (const targetPlan of plan.targets) {
    const { targetPath, target, toSend, removed } = targetPlan;
    (lockAfterPlan[targetPlan.file.path] ??= {})[target] = targetPlan.lock;
    if (toSend.length > 0 || removed.length > 0) {
      events.push({
        event: 'stale',
        path: targetPath,
        target,
        reason: targetPlan.existing === undefined ? 'missing' : 'out of date',
        ...(toSend.length ? { send: toSend } : {}),
        ...(removed.length ? { remove: removed } : {}),
      });
    } else if (renderTarget(targetPlan, new Map()) !== targetPlan.existing) {
      events.push({ event: 'stale', path: targetPath, target, reason: 'laid out differently from its source (key order or structure)' });
    }
  }
  for (const gone of plan.removedFiles) {
    if (existsSync(join(root, gone.targetPath))) {
      events.push({ event: 'stale', path: gone.targetPath, target: gone.target, reason: `its source ${gone.sourcePath} is gone` });
    }
  }
  const lockNow = existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : undefined;
  if (events.length === 0 && lockNow !== formatLockfile(lockAfterPlan) && !(lockNow === undefined && Object.keys(lockBefore).length === 0 && plan.targets.length === 0)) {
    events.push({ event: 'stale', path: LOCK_FILE, target: '*', reason: 'does not record the files as they are' });
  }
  return events;
}

async function dryRun(calls: readonly Call[], options: SyncOptions, config: { source: string; model?: string; glossaryId?: string }): Promise<void> {
  const works = calls.flatMap((call): { work: Work; via: Call['via'] }[] =>
    call.via === 'batch' ? call.works.map((work) => ({ work, via: call.via })) : [{ work: call.work, via: call.via }],
  );
  for (const { work, via } of works) {
    options.report({
      event: 'would_send',
      file: work.file,
      targets: work.targets,
      format: work.format ?? 'detected',
      strings: work.pointers,
      characters: work.content.length,
      via,
    });
  }
  // The estimate per target: every work that target needs, asked of the API one by one.
  let api: LocalizeApi;
  try {
    api = options.api();
  } catch (error) {
    options.report({ event: 'estimate_unavailable', reason: (error as Error).message });
    return;
  }
  const targets = [...new Set(works.flatMap(({ work }) => work.targets))];
  for (const target of targets) {
    const mine = works.filter(({ work }) => work.targets.includes(target));
    const results = await runLimited(
      mine.map(({ work }) => () =>
        api.estimate({ content: work.content, ...(work.format ? { format: work.format } : {}), targets: [target], ...requestOptions(config) }),
      ),
      options.concurrency,
    );
    const rejected = results.find((result) => result.status === 'rejected');
    if (rejected) {
      options.report({ event: 'estimate_unavailable', reason: (rejected.reason as Error).message });
      return;
    }
    const sum = (pick: (e: Awaited<ReturnType<LocalizeApi['estimate']>>) => number) =>
      results.reduce((total, result) => total + (result.status === 'fulfilled' ? pick(result.value) : 0), 0);
    options.report({
      event: 'estimate',
      target,
      input_tokens: sum((e) => e.inputTokens),
      output_tokens: sum((e) => e.outputTokens),
      total_tokens: sum((e) => e.totalTokens),
      cached_segments: sum((e) => e.cachedSegments),
      precheck_passes: results.every((result) => result.status === 'fulfilled' && result.value.precheck.passes),
    });
  }
}

function requestOptions(config: { source: string; model?: string; glossaryId?: string }) {
  return { source: config.source, ...(config.model ? { model: config.model } : {}), ...(config.glossaryId ? { glossaryId: config.glossaryId } : {}) };
}

/** Sends every call (at most `concurrency` at once), hands each work's translations to `deliver`; answers the works that failed. */
async function send(
  calls: readonly Call[],
  options: SyncOptions,
  config: { source: string; model?: string; glossaryId?: string },
  totals: Totals,
  deliver: (work: Work, translations: Readonly<Record<string, string>>) => void,
): Promise<Work[]> {
  const { report } = options;
  const progress = new Map<string, { done: number; total: number }>();
  for (const call of calls) {
    for (const work of call.via === 'batch' ? call.works : [call.work]) {
      for (const target of work.targets) {
        const row = progress.get(target) ?? { done: 0, total: 0 };
        row.total += work.pointers.length;
        progress.set(target, row);
      }
    }
  }
  report({ event: 'start', targets: Object.fromEntries([...progress].map(([target, row]) => [target, row.total])) });
  const api = options.api();
  const count = (usage: Usage) => {
    totals.inputTokens += usage.inputTokens;
    totals.outputTokens += usage.outputTokens;
    totals.cachedSegments += usage.cachedSegments;
  };
  const finished = (work: Work, translations: Readonly<Record<string, string>>) => {
    deliver(work, translations);
    totals.stringsSent += work.pointers.length;
    for (const target of work.targets) {
      const row = progress.get(target)!;
      row.done += work.pointers.length;
      report({ event: 'progress', target, done: row.done, total: row.total });
    }
  };
  const failed: Work[] = [];
  const fail = (works: readonly Work[], error: unknown) => {
    failed.push(...works);
    const code = (error as { code?: unknown }).code;
    report({ event: 'error', message: `${works.map((work) => work.file).join(', ')}: ${(error as Error).message}`, ...(typeof code === 'string' ? { code } : {}) });
  };
  const tasks = calls.map((call) => async () => {
    const works = call.via === 'batch' ? call.works : [call.work];
    try {
      totals.requests += 1;
      if (call.via === 'batch') {
        const answer = await api.translateBatch({
          items: call.works.map((work) => ({ id: work.id, content: work.content, ...(work.format ? { format: work.format } : {}) })),
          targets: call.works[0]!.targets,
          ...requestOptions(config),
        });
        count(answer.usage);
        for (const work of call.works) finished(work, answer.results.find((result) => result.id === work.id)!.translations);
        return;
      }
      const request = { content: call.work.content, ...(call.work.format ? { format: call.work.format } : {}), targets: call.work.targets, ...requestOptions(config) };
      let answer: Translated;
      if (call.via === 'job') {
        const jobId = await api.createJob(request);
        report({ event: 'job', file: call.work.file, job_id: jobId, status: 'created' });
        answer = await api.waitForJob(jobId, (view) =>
          report({ event: 'job', file: call.work.file, job_id: jobId, status: view.status, ...(view.queuePosition !== undefined ? { queue_position: view.queuePosition } : {}) }),
        );
        report({ event: 'job', file: call.work.file, job_id: jobId, status: 'completed' });
      } else {
        answer = await api.translate(request);
      }
      count(answer.usage);
      finished(call.work, answer.translations);
    } catch (error) {
      fail(works, error);
    }
  });
  await runLimited(tasks, options.concurrency);
  return failed;
}
