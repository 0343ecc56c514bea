/**
 * The exit codes of `sync` (and `translate`), after Terraform's `plan -detailed-exitcode`
 * (0 no changes, 1 error, 2 changes), so that a script or CI step tells the outcomes apart
 * without reading the output. README "Localize a repository" lists them.
 */
export const ExitCode = {
  /** sync: everything was up to date, nothing sent or written. translate: every file written. */
  ok: 0,
  /** A request failed, or the configuration, a file or the lock could not be read. */
  error: 1,
  /** sync: target files (and the lock) were written. */
  updated: 2,
  /** sync --frozen or --dry-run: there is work to do; nothing was sent or written. */
  stale: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
