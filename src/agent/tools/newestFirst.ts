import fs from 'node:fs/promises';

/** Paths by modification time, newest first, ties by path; a file gone since sorts last. */
export async function sortNewestFirst(files: readonly string[]): Promise<string[]> {
  const timed: { p: string; t: number }[] = [];
  // In slices, so a huge listing does not queue tens of thousands of stats at once.
  for (let i = 0; i < files.length; i += 2048) {
    const slice = files.slice(i, i + 2048);
    const times = await Promise.all(
      slice.map((p) =>
        fs.stat(p).then(
          (st) => st.mtimeMs,
          () => 0,
        ),
      ),
    );
    slice.forEach((p, k) => timed.push({ p, t: times[k] ?? 0 }));
  }
  timed.sort((a, b) => b.t - a.t || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  return timed.map((e) => e.p);
}
