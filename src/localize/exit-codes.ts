/**
 * The exit codes of `sync` (and `translate`): 0 for success, whether files were written
 * or all was up to date (a CI step run with `set -e`, GitHub Actions' default shell,
 * fails on anything else), 1 for an error, 3 when `--frozen` or `--dry-run` finds work.
 * (The written/up-to-date difference is in the output's `done` event.) README "Localize
 * a repository" lists them; docs/decisions/0065.
 */
export const ExitCode = {
  /** sync: everything was up to date, nothing sent or written. translate: every file written. */
  ok: 0,
  /** A request failed, or the configuration, a file or the lock could not be read. */
  error: 1,
  /** sync: target files (and the lock) were written: a success like any other. */
  updated: 0,
  /** sync --frozen or --dry-run: there is work to do; nothing was sent or written. */
  stale: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
