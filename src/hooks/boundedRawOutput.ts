import type { HookRawOutput } from './hookAction';

/**
 * What a run record keeps of a hook's stdout/stderr. The decision is parsed from the full
 * capture (up to the process runner's 1 MiB cap) before this is applied; only the copy kept
 * afterwards — in the CLI, the Hook Runs view, the observers — is bounded, so a chatty hook
 * (1 MiB per call, hundreds of calls) cannot grow the process by its output.
 */

/** Characters kept from the start and from the end of each stream. */
export const RECORD_OUTPUT_HEAD_CHARS = 32 * 1024;
export const RECORD_OUTPUT_TAIL_CHARS = 32 * 1024;

/**
 * `text` when it fits in head + tail; otherwise its first and last 32 Ki characters around a
 * `… N bytes cut …` line (N counts UTF-8 bytes of the dropped middle). Never splits a
 * surrogate pair. `cut` tells whether anything was dropped.
 */
export function headAndTail(text: string, head = RECORD_OUTPUT_HEAD_CHARS, tail = RECORD_OUTPUT_TAIL_CHARS): { readonly text: string; readonly cut: boolean } {
  if (text.length <= head + tail) return { text, cut: false };
  let start = head;
  let end = text.length - tail;
  if (isHighSurrogate(text.charCodeAt(start - 1))) start--;
  if (isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const middle = text.slice(start, end);
  // The copies are flattened so they do not keep the whole original string alive as slices.
  const kept = `${text.slice(0, start)}\n… ${Buffer.byteLength(middle, 'utf8')} bytes cut …\n${text.slice(end)}`;
  return { text: flatten(kept), cut: true };
}

/** `raw` with stdout and stderr bounded by {@link headAndTail}; the same object when both fit. */
export function boundRawOutput(raw: HookRawOutput): HookRawOutput {
  const out = headAndTail(raw.stdout);
  const err = headAndTail(raw.stderr);
  if (!out.cut && !err.cut) return raw;
  return {
    ...raw,
    stdout: out.text,
    stderr: err.text,
    ...(out.cut || raw.stdoutTruncated ? { stdoutTruncated: true } : {}),
    ...(err.cut || raw.stderrTruncated ? { stderrTruncated: true } : {}),
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * V8 may represent a slice or concatenation as a view onto its parent; a round trip through
 * a Buffer yields an independent flat string, so the parent (up to 1 MiB) can be freed.
 */
function flatten(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
