/**
 * With HOOKWISE_BENCH_BROWSER_TRACE set, the host bench runs one long session without hooks and
 * one with them while the runner (test/host/browserTrace.mjs) records a Chrome trace of the
 * workbench around each: what the browser does per Bash call, by thread, which the CPU time per
 * process cannot tell. The two sides meet through a file beside the results: this side writes
 * `start <label> <calls>` or `end <label> <calls>` and waits until the runner writes the same
 * text to the `.ack` file, so each trace covers one session and nothing else.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** How many Bash calls each traced session makes (long enough that the trace's edges do not count). */
export const TRACED_CALLS = 100;

/** Runs `session(TRACED_CALLS)` with 0 and with `hooks` hooks, each between a start and an end the runner traces. */
export async function runTracedSessions(
  resultsFile: string,
  hooks: number,
  setHooks: (count: number) => Promise<void>,
  session: (calls: number) => Promise<number>,
): Promise<void> {
  // The runner (test/host/benchHost.mjs) reads the same names.
  const signal = `${resultsFile}.trace`;
  const told = async (text: string): Promise<void> => {
    writeFileSync(signal, text);
    const ack = `${signal}.ack`;
    const deadline = Date.now() + 30_000;
    while (!(existsSync(ack) && readFileSync(ack, 'utf8') === text)) {
      if (Date.now() > deadline) throw new Error(`the bench runner did not answer "${text}" (is it tracing?)`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  for (const count of [0, hooks]) {
    await setHooks(count);
    const label = count === 0 ? 'plain' : `${count}-hooks`;
    await told(`start ${label} ${TRACED_CALLS}`);
    await session(TRACED_CALLS);
    await told(`end ${label} ${TRACED_CALLS}`);
  }
}
