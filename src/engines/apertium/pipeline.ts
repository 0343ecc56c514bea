/**
 * One long-lived Apertium pipeline for one mode (eng-spa): the mode's chain of programs
 * (lt-proc | apertium-tagger | … | lt-proc -p) started once, in null-flush mode, and fed
 * texts one after another, each ended by `\0`; every stage answers a `\0` by flushing
 * what it has and passing the `\0` on, so the n-th `\0` out ends the n-th text in.
 * Several texts may be in the pipe at once (they come out in order), which is what makes
 * it fast: no program starts per segment and no round trip waits between segments.
 *
 * Why not the `apertium` script: it opens `/dev/stdin` by name, and Node's child stdio
 * "pipes" are Unix socket pairs, which cannot be opened that way (ENXIO), so the
 * deformatter printed its usage and translated nothing — that is the "stdin not read"
 * seen when it was tried (docs/engine-notes.md, "Apertium"). The mode's chain reads fd 0
 * directly, which works on a socket as on a pipe. The chain comes from
 * `apertium-wblank-mode -z`, Apertium's own writer of it (word-bound blanks on, every
 * stage in null-flush mode).
 *
 * A pipeline that exits, or does not answer within `timeoutMs` of a text, is killed
 * (its whole process group) and every text waiting on it fails with a retryable
 * EngineError; the next text starts a fresh one. One left with nothing to do for
 * `idleMs` is stopped too, giving back the memory its transducers hold (about 200 MB for
 * eng-spa); the next text starts it again, paying the start once more.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { EngineError } from '../engine.js';

interface Waiting {
  readonly resolve: (text: string) => void;
  readonly reject: (error: Error) => void;
}

export interface PipelineOptions {
  /** The shell text of the mode's chain, with `$1` the generator's flag and `$2` the tagger's. */
  readonly chain: string;
  readonly timeoutMs: number;
  /** How long the chain may run with no text in it before it is stopped; 0: never (config.apertiumIdleMs). */
  readonly idleMs?: number;
}

export class ApertiumPipeline {
  #child: ChildProcessWithoutNullStreams | undefined;
  #waiting: Waiting[] = [];
  #buffered: Buffer[] = [];
  #timer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  /** How many times a chain was started: 1 for a pipeline that never had to restart. */
  starts = 0;

  constructor(private readonly options: PipelineOptions) {}

  /** Texts sent and not yet answered. */
  get inFlight(): number {
    return this.#waiting.length;
  }

  /** The pid of the running chain's process group, if one runs (tests kill it to see a restart). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Translates `stream` (Apertium stream format, no `\0` inside). Rejects with EngineError
   * on a crash or timeout. Not cancellable: the answer comes through the pipe in its turn
   * whatever happens, so a caller that goes away just stops waiting for it.
   */
  translate(stream: string): Promise<string> {
    const child = this.#running();
    return new Promise<string>((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      this.#arm();
      child.stdin.write(stream + '\0');
    });
  }

  /** Stops the chain; texts still waiting fail. */
  close(): void {
    this.#fail(new EngineError('the Apertium engine was shut down', true));
  }

  /** Whether a chain is running now (idle or not). */
  get running(): boolean {
    return this.#child !== undefined;
  }

  #running(): ChildProcessWithoutNullStreams {
    if (this.#child) return this.#child;
    // detached: the chain is its own process group, so a stuck one is killed whole.
    // `$0` names the script in `ps`; `-n` is the generator without unknown-word marks
    // (the script's `-u`); the tagger gets no extra flag.
    const child = spawn('bash', ['-c', this.options.chain, 'apertium-chain', '-n', ''], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.starts++;
    this.#child = child;
    this.#buffered = [];
    // An idle chain must not keep the process alive; waiting texts hold a timer that does.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr] as const) (stream as unknown as { unref?: () => void }).unref?.();
    child.stdout.on('data', (data: Buffer) => this.#read(child, data));
    child.stderr.resume();
    child.stdin.on('error', () => {});
    child.on('error', (error) => {
      if (this.#child === child) this.#fail(new EngineError('the Apertium engine could not be started', true, { cause: error }));
    });
    child.on('exit', (code, signal) => {
      if (this.#child === child) {
        this.#fail(new EngineError(`the Apertium engine stopped (${signal ?? `exit ${code}`})`, true));
      }
    });
    return child;
  }

  #read(child: ChildProcessWithoutNullStreams, data: Buffer): void {
    if (this.#child !== child) return;
    let from = 0;
    for (let end = data.indexOf(0, from); end >= 0; end = data.indexOf(0, from)) {
      this.#buffered.push(data.subarray(from, end));
      const text = Buffer.concat(this.#buffered).toString('utf8');
      this.#buffered = [];
      from = end + 1;
      const waiting = this.#waiting.shift();
      // A `\0` with no text waiting: the chain flushes extra ones only at its end.
      waiting?.resolve(text);
      this.#arm();
    }
    if (from < data.length) this.#buffered.push(data.subarray(from));
  }

  /**
   * One timer for the oldest waiting text, restarted whenever a text is answered; with
   * no text waiting, the idle timer instead.
   */
  #arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#waiting.length === 0) {
      const idleMs = this.options.idleMs ?? 0;
      if (idleMs > 0 && this.#child) {
        this.#idleTimer = setTimeout(() => this.#fail(new EngineError('the Apertium engine was stopped while idle', true)), idleMs);
        // Waiting to stop an idle chain must not keep the process alive.
        this.#idleTimer.unref();
      }
      return;
    }
    this.#timer = setTimeout(() => {
      this.#fail(new EngineError('the Apertium engine did not answer in time', true));
    }, this.options.timeoutMs);
  }

  #fail(error: EngineError): void {
    const child = this.#child;
    this.#child = undefined;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (child?.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const entry of waiting) entry.reject(error);
  }
}
