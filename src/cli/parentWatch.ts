/**
 * Notices that the process that started the CLI has died (its shell was killed, an IDE
 * crashed). The CLI is then re-parented and nothing would ever stop it or the hooks and
 * commands it runs; stdin EOF is no signal (the CLI does not read stdin), so the parent pid
 * is polled. The timer never keeps the process alive.
 */

/** How often the parent pid is checked. */
export const PARENT_POLL_MS = 500;

/**
 * Calls `onGone` once when `process.ppid` changes from its value now. Returns a function
 * that stops watching.
 */
export function watchParent(onGone: () => void, intervalMs = PARENT_POLL_MS): () => void {
  const initial = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === initial) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
