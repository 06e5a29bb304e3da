import type { Readable } from 'node:stream';

/**
 * How long a run waits for the first byte on a stdin that is not a terminal before it goes on
 * without it: Claude Code 2.1.328's wait (measured: it warns and proceeds after 3 s). Once data
 * has come, the run waits for the end of it, as Claude Code does.
 */
export const STDIN_FIRST_DATA_MS = 3000;

/** The most a prompt may be on stdin: a prompt, not a data set (~2.5 M tokens already). */
export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

/** What stdin gave. */
export type PipedInput =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'noData'; readonly warning: string }
  | { readonly kind: 'tooLarge'; readonly message: string }
  | { readonly kind: 'aborted' };

/** Options of {@link readPipedInput}. */
export interface PipedInputOptions {
  readonly signal: AbortSignal;
  readonly firstDataMs?: number;
  readonly maxBytes?: number;
}

/**
 * Reads the input piped to a run (`cat log | hookwise -p "explain"`): all of `input` up to its
 * end, decoded as UTF-8. An empty input is `text` ''. When nothing arrives within `firstDataMs`,
 * the input is left (`noData`, with a warning saying how to skip the wait), as is one over
 * `maxBytes` (`tooLarge`: nothing of it is used). The caller decides that stdin is not a
 * terminal. An `input` left unfinished is paused and unref'd (a writer still at it blocks
 * until the run exits).
 */
export function readPipedInput(input: Readable, options: PipedInputOptions): Promise<PipedInput> {
  const firstDataMs = options.firstDataMs ?? STDIN_FIRST_DATA_MS;
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (result: PipedInput, keep = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      // A stdin that is left must not hold the run open. Paused and unref'd, not destroyed: a
      // destroyed stdin closes fd 0, and the next file the run opens would take its number.
      if (!keep) {
        input.pause();
        (input as Readable & { unref?: () => void }).unref?.();
      }
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      clearTimeout(timer);
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        finish({ kind: 'tooLarge', message: `the input on stdin is over ${formatMiB(maxBytes)}: nothing was sent; pass a file's path in the prompt instead` });
        return;
      }
      chunks.push(bytes);
    };
    const received = (): PipedInput => ({ kind: 'text', text: Buffer.concat(chunks).toString('utf8') });
    const onEnd = (): void => finish(received(), true);
    // A stdin that cannot be read (EBADF, EIO) gives what had come, as an ended one does.
    const onError = (): void => finish(received());
    const onAbort = (): void => finish({ kind: 'aborted' });
    const timer = setTimeout(
      () =>
        finish({
          kind: 'noData',
          warning: `no input on stdin within ${firstDataMs / 1000} s; going on without it (redirect stdin from /dev/null to skip the wait)`,
        }),
      firstDataMs,
    );
    if (options.signal.aborted) {
      onAbort();
      return;
    }
    options.signal.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}

/**
 * The prompt of a run from its argument and what was piped to it, as Claude Code 2.1.328 puts
 * them together (measured): the argument, a newline, then the piped text as it came; either
 * alone when the other is empty.
 */
export function composePrompt(argument: string, piped: string): string {
  if (piped === '') return argument;
  if (argument === '') return piped;
  return `${argument}\n${piped}`;
}

function formatMiB(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}
