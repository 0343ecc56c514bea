/**
 * The `translate` and `sync` commands' options turned into a run: the client
 * configuration (flags over TRANSLATE_API_URL / TRANSLATE_API_KEY), the reporter, and
 * errors reported in the chosen form with exit code 1. Loaded by commands.ts only when
 * one of these commands runs; nothing here reaches the database or Fastify.
 */
import { resolve } from 'node:path';
import { ConfigError, loadClientConfig } from '../config.js';
import { findLanguage } from '../languages.js';
import { ApiError, FORMATS, isFormat, type Format, type LocalizeApi } from './api.js';
import { ExitCode } from './exit-codes.js';
import { createClientApi } from './client-api.js';
import { LockfileError } from './lockfile.js';
import { SyncInputError } from './plan.js';
import { createReporter, type Report } from './progress.js';
import { CONFIG_FILE, ProjectConfigError } from './project-config.js';
import { sync } from './sync.js';
import { translateFiles } from './translate-files.js';

export interface ClientFlags {
  readonly apiUrl?: string;
  readonly apiKey?: string;
  readonly json?: boolean;
  readonly concurrency: number;
  readonly jobAbove: number;
}

export interface SyncFlags extends ClientFlags {
  readonly config: string;
  readonly frozen?: boolean;
  readonly dryRun?: boolean;
}

export interface TranslateFlags extends ClientFlags {
  readonly to: string;
  readonly from?: string;
  readonly format?: string;
  readonly model?: string;
  readonly out?: string;
  readonly inPlace?: boolean;
}

/** Errors a user can act on get their message; anything else is a bug and keeps its stack. */
const EXPECTED_ERRORS = [ApiError, ConfigError, ProjectConfigError, LockfileError, SyncInputError];

async function guarded(flags: ClientFlags, work: (report: Report) => Promise<ExitCode>): Promise<ExitCode> {
  const report = createReporter(flags.json ? 'json' : 'auto', { out: process.stdout, err: process.stderr });
  try {
    return await work(report);
  } catch (error) {
    const expected = EXPECTED_ERRORS.some((kind) => error instanceof kind) || (error as NodeJS.ErrnoException).code === 'ENOENT';
    const message = expected ? (error as Error).message : ((error as Error).stack ?? String(error));
    const code = error instanceof ApiError ? error.code : undefined;
    report({ event: 'error', message, ...(code ? { code } : {}) });
    return ExitCode.error;
  }
}

function apiFactory(flags: ClientFlags): () => LocalizeApi {
  const client = loadClientConfig(
    { ...(flags.apiUrl !== undefined ? { apiUrl: flags.apiUrl } : {}), ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}) },
  );
  return () => {
    if (client.apiKey === undefined) throw new ConfigError('no API key: set TRANSLATE_API_KEY or pass --api-key');
    return createClientApi({ baseUrl: client.apiUrl, apiKey: client.apiKey });
  };
}

export function runSync(flags: SyncFlags): Promise<ExitCode> {
  return guarded(flags, async (report) => {
    if (flags.frozen && flags.dryRun) throw new ConfigError('--frozen and --dry-run cannot be used together');
    return sync({
      configPath: resolve(flags.config),
      mode: flags.frozen ? 'frozen' : flags.dryRun ? 'dry-run' : 'write',
      concurrency: flags.concurrency,
      jobAbove: flags.jobAbove,
      api: apiFactory(flags),
      report,
    });
  });
}

export function runTranslate(files: readonly string[], flags: TranslateFlags): Promise<ExitCode> {
  return guarded(flags, async (report) => {
    const targets = flags.to.split(',').map((code) => code.trim()).filter(Boolean);
    if (targets.length === 0) throw new ConfigError('--to needs at least one language code, e.g. --to fr,de');
    for (const code of [...targets, ...(flags.from ? [flags.from] : [])]) {
      if (findLanguage(code) === undefined) throw new ConfigError(`unknown language code "${code}" (GET /v1/languages lists them)`);
    }
    if (new Set(targets.map((t) => t.toLowerCase())).size !== targets.length) throw new ConfigError('--to names a language twice');
    if (flags.format !== undefined && !isFormat(flags.format)) throw new ConfigError(`--format must be one of ${FORMATS.join(', ')}`);
    if (flags.inPlace && flags.out !== undefined) throw new ConfigError('--out and --in-place cannot be used together');
    if (flags.inPlace && targets.length !== 1) throw new ConfigError('--in-place needs exactly one target language');
    return translateFiles({
      files,
      targets,
      ...(flags.from ? { source: flags.from } : {}),
      ...(flags.format ? { format: flags.format as Format } : {}),
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.out !== undefined ? { out: flags.out } : {}),
      inPlace: flags.inPlace === true,
      concurrency: flags.concurrency,
      jobAbove: flags.jobAbove,
      api: apiFactory(flags),
      report,
    });
  });
}

export { CONFIG_FILE };
