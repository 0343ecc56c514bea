/**
 * How a piece of work learns that nobody wants its answer any more (the client went away,
 * the job was released). `signal` is read only where the work is about to wait on a model
 * call: an AbortSignal and its listeners are not free (decision 0037), and a request
 * answered wholly from translation memory never needs one. So the HTTP layer hands
 * over an object that makes its signal on first read; anything holding a signal already
 * passes `{ signal }` (an AbortController is one too).
 */
export interface Cancellation {
  readonly signal: AbortSignal;
}
