/**
 * `translate-service translate FILE… --to fr,de`: each file translated into every target
 * in one request (a job when it is large, with its queue position shown while it waits),
 * and written once per target in the file's own format — the format named with
 * --format, else the one its extension says, else the one the API detects.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Format, LocalizeApi } from './api.js';
import { ExitCode } from './exit-codes.js';
import { formatFromExtension } from './file-formats.js';
import { writeFileAtomic } from './fs-write.js';
import type { Report } from './progress.js';
import { runLimited } from './run-limited.js';
import { decodeFile } from './text-encoding.js';
import { addUsage, reportDone, reportFailure, throughJob, type Totals } from './send-calls.js';

export interface TranslateFilesOptions {
  readonly files: readonly string[];
  readonly targets: readonly string[];
  readonly source?: string;
  readonly format?: Format;
  readonly model?: string;
  /** Write `DIR/<target>/<file name>`; neither this nor inPlace: `<name>.<target><ext>` beside the file. */
  readonly out?: string;
  /** Overwrite the file itself (one target only). */
  readonly inPlace: boolean;
  readonly concurrency: number;
  readonly jobAbove: number;
  readonly api: () => LocalizeApi;
  readonly report: Report;
}

/** Where a file's translation into `target` is written. */
export function outputPath(file: string, target: string, options: Pick<TranslateFilesOptions, 'out' | 'inPlace'>): string {
  if (options.inPlace) return file;
  if (options.out !== undefined) return join(options.out, target, basename(file));
  const extension = extname(file);
  return join(dirname(file), `${basename(file, extension)}.${target}${extension}`);
}

export async function translateFiles(options: TranslateFilesOptions): Promise<ExitCode> {
  const { report } = options;
  const api = options.api();
  const totals: Totals = { stringsSent: 0, requests: 0, inputTokens: 0, outputTokens: 0, cachedSegments: 0 };
  const results = await runLimited(
    options.files.map((file) => async () => {
      // A UTF-16 file (Apple .strings) is sent as text and written back in UTF-16.
      const { text: content, encoding } = decodeFile(readFileSync(file));
      const format = options.format ?? formatFromExtension(file);
      const request = {
        content,
        targets: options.targets,
        ...(format ? { format } : {}),
        ...(options.source ? { source: options.source } : {}),
        ...(options.model ? { model: options.model } : {}),
      };
      totals.requests += 1;
      const answer = content.length > options.jobAbove ? await throughJob(api, request, file, report) : await api.translate(request);
      addUsage(totals, answer.usage);
      for (const target of options.targets) {
        const path = outputPath(file, target, options);
        writeFileAtomic(path, answer.translations[target]!, encoding);
        report({ event: 'written', path });
      }
    }),
    options.concurrency,
  );
  let failed = false;
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') return;
    failed = true;
    reportFailure(report, options.files[i]!, result.reason);
  });
  return reportDone(report, failed ? 'failed' : 'translated', failed ? ExitCode.error : ExitCode.ok, totals);
}
