import type * as ChildProcess from 'node:child_process';
import type * as Readline from 'node:readline';
import type * as Tty from 'node:tty';
import type * as WorkerThreads from 'node:worker_threads';
import type * as Zlib from 'node:zlib';

/*
 * Node built-ins loaded on their first use, so the CLI's start-up does not set up modules a run
 * never uses (an answer without tools spawns nothing, reads no gzip, starts no worker): each
 * costs 0.2–0.9 ms of CPU to load. Every bundle keeps these requires as run-time requires.
 * Value imports of these modules go through here; type imports stay as they are.
 */

function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/* eslint-disable @typescript-eslint/no-require-imports -- the point of this file: a require on first use */
/** `node:child_process`: the launchers, the watchdog, the group killer. */
export const childProcess = lazy(() => require('node:child_process') as typeof ChildProcess);
/** `node:zlib`: compressed model responses. */
export const zlib = lazy(() => require('node:zlib') as typeof Zlib);
/** `node:worker_threads`: the Grep fallback's worker. */
export const workerThreads = lazy(() => require('node:worker_threads') as typeof WorkerThreads);
/** `node:readline`: the Read tool's line reader. */
export const readline = lazy(() => require('node:readline') as typeof Readline);
/** `node:tty`: the CLI's prompt terminal. */
export const tty = lazy(() => require('node:tty') as typeof Tty);
/* eslint-enable @typescript-eslint/no-require-imports */
