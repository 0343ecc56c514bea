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
import type { LocalizeApi } from './api.js';
import { dryRun } from './dry-run.js';
import { ExitCode } from './exit-codes.js';
import { removeFile, writeFileAtomic } from './fs-write.js';
import { formatLockfile, LOCK_FILE, readLockfile, type LockFiles } from './lockfile.js';
import { lockAfter, planSync, renderTarget, type SyncPlan, type TargetPlan } from './plan.js';
import type { Report, StaleEvent } from './progress.js';
import { readProjectConfig } from './project-config.js';
import { gatherWork, planCalls, readTranslation } from './requests.js';
import { reportDone, sendCalls, type Totals } from './send-calls.js';
import { decodeFile } from './text-encoding.js';

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

export async function sync(options: SyncOptions): Promise<ExitCode> {
  const { report } = options;
  const config = readProjectConfig(options.configPath);
  const root = dirname(options.configPath);
  const lockPath = join(root, LOCK_FILE);
  const lockBefore = readLockfile(lockPath);
  const plan = planSync(root, config, lockBefore);
  const totals: Totals = { stringsSent: 0, requests: 0, inputTokens: 0, outputTokens: 0, cachedSegments: 0 };
  const done = (status: string, exitCode: ExitCode): ExitCode => reportDone(report, status, exitCode, totals);

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
    await dryRun(calls, { api: options.api, report, concurrency: options.concurrency }, config);
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

  const failed = await sendCalls(calls, { api: options.api, report, concurrency: options.concurrency }, config, totals, (work, translations) => {
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
  const path = join(root, targetPlan.targetPath);
  // A String Catalog holds every target: each is merged into the file as the targets before it left it.
  const onDisk = targetPlan.file.kind === 'catalog' && existsSync(path) ? decodeFile(readFileSync(path)) : undefined;
  const text = renderTarget(targetPlan, translated, onDisk?.text);
  if (text === undefined || text === (onDisk?.text ?? targetPlan.existing)) return;
  writeFileAtomic(path, text, onDisk?.encoding ?? targetPlan.encoding);
  report({ event: 'written', path: targetPlan.targetPath });
}

/** Why the files or the lock are not what a sync would leave, one event per target file; none when up to date. */
function staleness(root: string, plan: SyncPlan, lockBefore: LockFiles, lockPath: string): StaleEvent[] {
  const events: StaleEvent[] = [];
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
