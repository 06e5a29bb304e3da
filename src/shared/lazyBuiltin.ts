/**
 * A Node built-in loaded on its first use, so the CLI's start-up does not set up modules a run
 * never uses (an empty `hookwise -p` spawns nothing, reads no gzip, starts no worker): each of
 * child_process, zlib, worker_threads, readline and tty costs 0.2–0.9 ms of CPU to load.
 * `load` is a `require` of the module, which every bundle keeps as a run-time require.
 */
export function lazyBuiltin<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}
