/**
 * `sync --dry-run`: what would be sent, work by work, and the API's estimate per target
 * (`POST /v1/translate/estimate`: tokens after translation memory, nothing charged). No
 * translation is requested; without a key or an estimate endpoint the list is still printed.
 */
import type { LocalizeApi } from './api.js';
import type { Call, Work } from './requests.js';
import { runLimited } from './run-limited.js';
import { requestOptions, type CallOptions, type RequestDefaults } from './send-calls.js';

export async function dryRun(calls: readonly Call[], options: CallOptions, config: RequestDefaults): Promise<void> {
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
