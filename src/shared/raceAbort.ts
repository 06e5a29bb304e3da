/**
 * Settles like `work`, or rejects with `signal.reason` as soon as `signal` fires, whichever
 * comes first: a callee that ignores the signal (a permission provider, an editor API) can
 * then never hang its caller. The abort listener is removed once `work` settles.
 */
export function raceAbort<T>(work: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
