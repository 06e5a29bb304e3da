/**
 * Runs tasks one at a time in arrival order: approval popups from several subagents must not
 * overlap. A task whose signal aborts while it waits is dropped and settles with
 * `onAborted()`; a running task sees the abort through its signal. `onBusyChanged` reports
 * whether anything is running or waiting (the status bar's "waiting for approval"). Pure.
 */
export class SerialQueue {
  private readonly waiting: { readonly start: () => void; readonly signal: AbortSignal }[] = [];
  private running = false;

  constructor(private readonly onBusyChanged: (busy: boolean) => void = () => {}) {}

  /** Queues `task`; settles with its result, or with `onAborted()` if aborted before it started. */
  run<T>(signal: AbortSignal, task: () => Promise<T>, onAborted: () => T): Promise<T> {
    if (signal.aborted) return Promise.resolve(onAborted());
    const wasBusy = this.busy;
    const promise = new Promise<T>((resolve, reject) => {
      const entry = {
        signal,
        start: () => {
          signal.removeEventListener('abort', dropWhileWaiting);
          this.running = true;
          // Start the next task before this one's caller resumes: the popups follow each other.
          task()
            .finally(() => {
              this.running = false;
              this.next();
            })
            .then(resolve, reject);
        },
      };
      const dropWhileWaiting = (): void => {
        const index = this.waiting.indexOf(entry);
        if (index < 0) return;
        this.waiting.splice(index, 1);
        resolve(onAborted());
        if (!this.busy) this.onBusyChanged(false);
      };
      signal.addEventListener('abort', dropWhileWaiting, { once: true });
      this.waiting.push(entry);
    });
    if (!wasBusy) this.onBusyChanged(true);
    if (!this.running) this.next();
    return promise;
  }

  /** Tasks running or waiting. */
  get size(): number {
    return this.waiting.length + (this.running ? 1 : 0);
  }

  get busy(): boolean {
    return this.size > 0;
  }

  private next(): void {
    const entry = this.waiting.shift();
    if (entry) entry.start();
    else if (!this.running) this.onBusyChanged(false);
  }
}
