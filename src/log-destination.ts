/**
 * Where log lines go by default: stdout, written by libuv's thread pool in batches, so a
 * request never waits on the kernel for its access line (docs/decisions/0031, 0038).
 *
 * Lines gather for up to GATHER_MS (or until GATHER_CHARS) and go out in one write. pino's
 * own asynchronous destination (sonic-boom) started a write per line whenever none was in
 * flight, and while one was it appended each line to a string whose UTF-8 length it
 * measured after every append — copying all it had gathered each time: with one access
 * line per request, a large share of the service's CPU under load (docs/benchmarks.md,
 * "HTTP request path").
 *
 * Never lost on the way out: lines still gathered when the process exits (process.exit,
 * an uncaught exception) are written synchronously then, and `flush(done)` (flushLogs on
 * shutdown) calls back once everything logged so far is written. A pipe that is full
 * (EAGAIN) is tried again; a destination that fails otherwise (stdout closed) loses its
 * lines, with one notice on stderr, and never throws into the code that logged.
 */
import { write as fsWrite, writeSync as fsWriteSync } from 'node:fs';

/** The longest a line waits for others before it is written. */
export const GATHER_MS = 10;
/** Gathered characters that are written at once, without waiting for GATHER_MS. */
export const GATHER_CHARS = 64 * 1024;
/** How long a full pipe is given before the write is tried again. */
const RETRY_MS = 5;

/** The calls this writer makes to the file system; tests may watch them. */
export interface LineIo {
  write(fd: number, buffer: Buffer, offset: number, length: number, position: null, done: (error: NodeJS.ErrnoException | null, written: number) => void): void;
  writeSync(fd: number, buffer: Buffer): number;
}

const NODE_IO: LineIo = { write: fsWrite, writeSync: fsWriteSync };

export class BatchedLineWriter {
  #lines: string[] = [];
  #chars = 0;
  #timer: NodeJS.Timeout | undefined;
  #writing = false;
  #flushed: (() => void)[] = [];
  #failureReported = false;

  constructor(
    private readonly fd: number,
    private readonly io: LineIo = NODE_IO,
  ) {
    writeOnExit(this);
  }

  /** Queues `line` (pino hands over whole lines, newline included). */
  write(line: string): boolean {
    this.#lines.push(line);
    this.#chars += line.length;
    if (!this.#writing) {
      if (this.#chars >= GATHER_CHARS) this.#writeGathered();
      else this.#timer ??= setTimeout(() => this.#writeGathered(), GATHER_MS).unref();
    }
    return true;
  }

  /** Calls `done` once every line queued so far has been written (or failed). */
  flush(done: () => void = () => {}): void {
    this.#flushed.push(done);
    if (!this.#writing) this.#writeGathered();
  }

  /** Writes what is gathered, synchronously: for the process's last moment. */
  flushSync(): void {
    if (this.#lines.length === 0) return;
    const buffer = this.#take();
    try {
      for (let offset = 0; offset < buffer.length; ) offset += this.io.writeSync(this.fd, buffer.subarray(offset));
    } catch (error) {
      this.#reportFailure(error);
    }
  }

  #take(): Buffer {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    return Buffer.from(text, 'utf8');
  }

  #writeGathered(): void {
    this.#timer = undefined;
    if (this.#writing) return;
    if (this.#lines.length === 0) {
      this.#callFlushed();
      return;
    }
    this.#writing = true;
    this.#writeFrom(this.#take(), 0);
  }

  #writeFrom(buffer: Buffer, offset: number): void {
    this.io.write(this.fd, buffer, offset, buffer.length - offset, null, (error, written) => {
      if (error?.code === 'EAGAIN') {
        setTimeout(() => this.#writeFrom(buffer, offset), RETRY_MS);
        return;
      }
      if (error) this.#reportFailure(error);
      else if (offset + written < buffer.length) {
        this.#writeFrom(buffer, offset + written);
        return;
      }
      this.#writing = false;
      // Lines that arrived meanwhile: at once if someone waits for them or they are many,
      // else after the usual gathering time.
      if (this.#flushed.length > 0 || this.#chars >= GATHER_CHARS) this.#writeGathered();
      else if (this.#lines.length > 0) this.#timer ??= setTimeout(() => this.#writeGathered(), GATHER_MS).unref();
    });
  }

  #callFlushed(): void {
    const waiting = this.#flushed;
    this.#flushed = [];
    for (const done of waiting) done();
  }

  #reportFailure(error: unknown): void {
    if (this.#failureReported) return;
    this.#failureReported = true;
    try {
      fsWriteSync(2, `log lines could not be written to fd ${this.fd} and are lost: ${String(error)}\n`);
    } catch {
      // stderr is gone too: nothing left to tell.
    }
  }
}

/** Writers to flush when the process exits; one exit listener for all of them. */
const live = new Set<WeakRef<BatchedLineWriter>>();

function writeOnExit(writer: BatchedLineWriter): void {
  if (live.size === 0) {
    process.once('exit', () => {
      for (const ref of live) ref.deref()?.flushSync();
    });
  }
  for (const ref of live) if (ref.deref() === undefined) live.delete(ref);
  live.add(new WeakRef(writer));
}
