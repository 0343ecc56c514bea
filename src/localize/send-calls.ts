/**
 * Sends a sync's calls (at most `concurrency` at once): `/translate/batch` for gathered
 * works, `/translate` for one, a job for a large one (its queue position reported while it
 * waits). Each work's translations go to `deliver` as they come back; per-target progress
 * is reported in strings. A failed call fails its works only; the rest go on.
 */
import type { LocalizeApi, TranslateRequest, Translated, Usage } from './api.js';
import type { ExitCode } from './exit-codes.js';
import type { Report } from './progress.js';
import type { Call, Work } from './requests.js';
import { runLimited } from './run-limited.js';

export interface CallOptions {
  /** Created when the first request is about to be made. */
  readonly api: () => LocalizeApi;
  readonly report: Report;
  readonly concurrency: number;
}

/** What every request of a sync carries, from translate.config.json. */
export interface RequestDefaults {
  readonly source: string;
  readonly model?: string;
  readonly glossaryId?: string;
}

/** Counted over a run, for the final report. */
export interface Totals {
  stringsSent: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedSegments: number;
}

/** Adds one answer's usage to the run's totals. */
export function addUsage(totals: Totals, usage: Usage): void {
  totals.inputTokens += usage.inputTokens;
  totals.outputTokens += usage.outputTokens;
  totals.cachedSegments += usage.cachedSegments;
}

/** Reports the run's end with its totals; answers `exitCode`. */
export function reportDone(report: Report, status: string, exitCode: ExitCode, totals: Totals): ExitCode {
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
}

/** Reports a failed request under `where` (its files), with the API's error code when it has one. */
export function reportFailure(report: Report, where: string, error: unknown): void {
  const code = (error as { code?: unknown }).code;
  report({ event: 'error', message: `${where}: ${(error as Error).message}`, ...(typeof code === 'string' ? { code } : {}) });
}

export function requestOptions(config: RequestDefaults) {
  return { source: config.source, ...(config.model ? { model: config.model } : {}), ...(config.glossaryId ? { glossaryId: config.glossaryId } : {}) };
}

/** Sends every call (at most `concurrency` at once), hands each work's translations to `deliver`; answers the works that failed. */
export async function sendCalls(
  calls: readonly Call[],
  options: CallOptions,
  config: RequestDefaults,
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
    reportFailure(report, works.map((work) => work.file).join(', '), error);
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
        addUsage(totals, answer.usage);
        for (const work of call.works) finished(work, answer.results.find((result) => result.id === work.id)!.translations);
        return;
      }
      const request = { content: call.work.content, ...(call.work.format ? { format: call.work.format } : {}), targets: call.work.targets, ...requestOptions(config) };
      const answer = call.via === 'job' ? await throughJob(api, request, call.work.file, report) : await api.translate(request);
      addUsage(totals, answer.usage);
      finished(call.work, answer.translations);
    } catch (error) {
      fail(works, error);
    }
  });
  await runLimited(tasks, options.concurrency);
  return failed;
}

/** A request sent as a job and followed to its result, each view reported (`created`, `pending` with its queue position, …, `completed`). */
export async function throughJob(api: LocalizeApi, request: TranslateRequest, file: string, report: Report): Promise<Translated> {
  const jobId = await api.createJob(request);
  report({ event: 'job', file, job_id: jobId, status: 'created' });
  const answer = await api.waitForJob(jobId, (view) =>
    report({ event: 'job', file, job_id: jobId, status: view.status, ...(view.queuePosition !== undefined ? { queue_position: view.queuePosition } : {}) }),
  );
  report({ event: 'job', file, job_id: jobId, status: 'completed' });
  return answer;
}
