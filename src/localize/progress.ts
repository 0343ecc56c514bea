/**
 * How the localize commands tell what they do, in one of three forms chosen once:
 * - a terminal: one line per target, redrawn in place as its strings come back;
 * - not a terminal (a CI log, a pipe): plain lines, one per event, nothing redrawn;
 * - `--json`: one JSON object per line (`{"event": …}`) for machines.
 * Everything goes to the given stream (stdout); errors go to stderr in the first two forms.
 */

export type ReportEvent =
  | { readonly event: 'start'; readonly targets: Readonly<Record<string, number>> }
  | { readonly event: 'progress'; readonly target: string; readonly done: number; readonly total: number }
  | { readonly event: 'job'; readonly file: string; readonly job_id: string; readonly status: string; readonly queue_position?: number }
  | { readonly event: 'written'; readonly path: string }
  | { readonly event: 'removed'; readonly path: string }
  | { readonly event: 'stale'; readonly path: string; readonly target: string; readonly reason: string; readonly send?: readonly string[]; readonly remove?: readonly string[] }
  | { readonly event: 'would_send'; readonly file: string; readonly targets: readonly string[]; readonly format: string; readonly strings: readonly string[]; readonly characters: number; readonly via: 'translate' | 'batch' | 'job' }
  | {
      readonly event: 'estimate';
      readonly target: string;
      readonly input_tokens: number;
      readonly output_tokens: number;
      readonly total_tokens: number;
      readonly cached_segments: number;
      readonly precheck_passes: boolean;
    }
  | { readonly event: 'estimate_unavailable'; readonly reason: string }
  | { readonly event: 'error'; readonly message: string; readonly code?: string }
  | { readonly event: 'done'; readonly status: string; readonly exit_code: number; readonly strings_sent: number; readonly requests: number; readonly input_tokens: number; readonly output_tokens: number; readonly cached_segments: number };

export type Report = (event: ReportEvent) => void;

export type StaleEvent = Extract<ReportEvent, { event: 'stale' }>;

export interface OutputStreams {
  readonly out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly err: NodeJS.WritableStream;
}

export function createReporter(mode: 'json' | 'auto', streams: OutputStreams): Report {
  if (mode === 'json') return (event) => streams.out.write(`${JSON.stringify(event)}\n`);
  return streams.out.isTTY === true ? terminalReporter(streams) : plainReporter(streams);
}

/** One sentence per event, shared by the terminal and the plain form. */
function describe(event: ReportEvent): string | undefined {
  switch (event.event) {
    case 'start':
      return undefined;
    case 'progress':
      return `${event.target}: ${event.done}/${event.total} strings`;
    case 'job':
      return `${event.file}: job ${event.job_id} ${event.status}${event.queue_position !== undefined ? ` (queue position ${event.queue_position})` : ''}`;
    case 'written':
      return `wrote ${event.path}`;
    case 'removed':
      return `removed ${event.path}`;
    case 'stale': {
      const details = [
        event.send?.length ? `${event.send.length} to translate (${preview(event.send)})` : '',
        event.remove?.length ? `${event.remove.length} to remove (${preview(event.remove)})` : '',
      ].filter(Boolean);
      return `stale ${event.path} [${event.target}]: ${event.reason}${details.length ? `: ${details.join(', ')}` : ''}`;
    }
    case 'would_send':
      return `would send ${event.file} -> ${event.targets.join(', ')} (${event.format}, ${event.strings.length === 1 && event.strings[0] === '' ? 'whole document' : `${event.strings.length} string${event.strings.length === 1 ? '' : 's'}: ${preview(event.strings)}`}, ${event.characters} characters, via ${event.via})`;
    case 'estimate':
      return `estimate ${event.target}: ${event.total_tokens} tokens (${event.input_tokens} in, ${event.output_tokens} out), ${event.cached_segments} from memory${event.precheck_passes ? '' : ', over the free tier\'s remaining grant'}`;
    case 'estimate_unavailable':
      return `no estimate: ${event.reason}`;
    case 'error':
      return `error: ${event.message}`;
    case 'done':
      return `${event.status}: ${event.strings_sent} strings sent in ${event.requests} request${event.requests === 1 ? '' : 's'}, ${event.input_tokens + event.output_tokens} tokens, ${event.cached_segments} segments from memory`;
  }
}

function preview(items: readonly string[]): string {
  const shown = items.slice(0, 5).map((item) => (item === '' ? 'whole document' : item));
  return items.length > 5 ? `${shown.join(', ')}, …` : shown.join(', ');
}

function plainReporter(streams: OutputStreams): Report {
  return (event) => {
    const line = describe(event);
    if (line === undefined) return;
    (event.event === 'error' ? streams.err : streams.out).write(`${line}\n`);
  };
}

/** Per-target lines drawn once and then rewritten in place; other events print above them. */
function terminalReporter(streams: OutputStreams): Report {
  const rows = new Map<string, { done: number; total: number }>();
  let drawn = 0;
  const bar = (done: number, total: number): string => {
    const width = 20;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  };
  const erase = () => {
    if (drawn > 0) streams.out.write(`\x1b[${drawn}A`);
    for (let i = 0; i < drawn; i++) streams.out.write('\x1b[2K\n');
    if (drawn > 0) streams.out.write(`\x1b[${drawn}A`);
    drawn = 0;
  };
  const draw = () => {
    for (const [target, row] of rows) streams.out.write(`\x1b[2K${target.padEnd(6)} ${bar(row.done, row.total)} ${row.done}/${row.total} strings\n`);
    drawn = rows.size;
  };
  return (event) => {
    if (event.event === 'start') {
      for (const [target, total] of Object.entries(event.targets)) rows.set(target, { done: 0, total });
      draw();
      return;
    }
    if (event.event === 'progress') {
      rows.set(event.target, { done: event.done, total: event.total });
      erase();
      draw();
      return;
    }
    const line = describe(event);
    if (line === undefined) return;
    erase();
    (event.event === 'error' ? streams.err : streams.out).write(`${line}\n`);
    if (event.event !== 'done') draw();
  };
}
