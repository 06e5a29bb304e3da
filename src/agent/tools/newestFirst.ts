import { statSync } from 'node:fs';

/** Synchronous stats run for at most this long before the event loop gets a turn. */
const SLICE_MS = 4;

/**
 * Paths by modification time, newest first, ties by path; a file gone since (or unreadable)
 * sorts last. Every path is stat'ed: the newest of all matches cannot be known otherwise.
 * With `signal` aborted, the paths not yet stat'ed sort as gone; the caller checks the signal.
 */
export async function sortNewestFirst(files: readonly string[], signal?: AbortSignal): Promise<string[]> {
  // statSync in time slices, not fs.promises.stat: the callers' paths were listed a moment
  // ago (warm in the kernel's cache), and a promise plus a thread-pool round trip per file cost
  // ~2.4× the CPU of the stat itself (6,000 files: 86 → 36 ms). The slices keep Stop and the
  // rest of the event loop served.
  const times = new Float64Array(files.length);
  let i = 0;
  while (i < files.length && signal?.aborted !== true) {
    const sliceEnd = performance.now() + SLICE_MS;
    do {
      times[i] = mtimeOf(files[i] as string);
      i++;
    } while (i < files.length && (i % 32 !== 0 || performance.now() < sliceEnd));
    if (i < files.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const order = Array.from(files.keys());
  order.sort((a, b) => {
    const ta = times[a] as number;
    const tb = times[b] as number;
    if (ta !== tb) return tb - ta;
    const pa = files[a] as string;
    const pb = files[b] as string;
    return pa < pb ? -1 : pa > pb ? 1 : 0;
  });
  return order.map((k) => files[k] as string);
}

function mtimeOf(file: string): number {
  try {
    return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  } catch {
    return 0; // unreadable: sorts last, like a file gone since the listing
  }
}
