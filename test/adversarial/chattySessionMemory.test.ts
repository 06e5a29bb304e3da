import { expect, it } from 'vitest';
import { useCliSuite } from '../support/cliSuite';
import { peakRssKib, sleep, spawnCli, writePlayground } from './support/procHarness';

/**
 * Memory of a long chatty session (docs/security.md): 400 tool calls through the real CLI,
 * each with a PreToolUse hook that prints 1 MiB. Before the fix the CLI kept every hook's
 * full output until exit (562 MiB peak RSS at 400 calls on the test machine; 962 MiB in the
 * issue); now run records keep 32 KiB + 32 KiB per stream and the CLI keeps only the
 * `hook_runs` projection, so the peak stays near the CLI's baseline (~110 MiB here).
 */

const CALLS = 400;
const CALLS_PER_TURN = 10;
/** Peak RSS the CLI may reach, in MiB. */
const PEAK_BOUND_MIB = 200;

const suite = useCliSuite();

it(`[adversarial] chatty session: ${CALLS} calls with a 1 MiB-per-call hook stay under ${PEAK_BOUND_MIB} MiB peak RSS`, { timeout: 120_000 }, async () => {
  const w = suite.w;
  await w.write('a.txt', 'hello\n');
  await w.settings({ hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: "head -c 1048576 /dev/zero | tr '\\0' a" }] }] } });
  const turns: unknown[] = [];
  for (let i = 0; i < CALLS / CALLS_PER_TURN; i++)
    turns.push({ toolCalls: Array.from({ length: CALLS_PER_TURN }, () => ({ name: 'Read', input: { file_path: 'a.txt' } })) });
  turns.push({ text: 'done' });
  const model = writePlayground(w, 'chatty.json', turns);

  const startedAt = Date.now();
  const cli = spawnCli(suite.cli, w, [
    '-p',
    'go',
    '--model',
    model,
    '--max-steps',
    String(turns.length + 5),
    '--output-format',
    'json',
    '--permission-mode',
    'bypassPermissions',
  ]);
  let peakKib = 0;
  let done = false;
  void cli.exited.then(() => (done = true));
  // VmHWM is the kernel's high-water mark: the last reading before exit is the peak so far.
  while (!done) {
    peakKib = Math.max(peakKib, peakRssKib(cli.pid) ?? 0);
    await sleep(25);
  }
  const code = await cli.exited;
  const seconds = (Date.now() - startedAt) / 1000;

  expect(code, cli.stderr()).toBe(0);
  const result = JSON.parse(cli.stdout()) as { status: string; hook_runs: { event: string; status: string }[] };
  expect(result.status).toBe('completed');
  const chatty = result.hook_runs.filter((r) => r.event === 'PreToolUse');
  expect(chatty).toHaveLength(CALLS);
  expect(chatty.every((r) => r.status === 'ok')).toBe(true);
  const peakMib = peakKib / 1024;
  console.log(
    `[adversarial] chatty-session-memory: 1 cases, ${peakMib <= PEAK_BOUND_MIB ? 0 : 1} failures, ${CALLS} calls x 1 MiB hook output, peak RSS ${peakMib.toFixed(0)} MiB (bound ${PEAK_BOUND_MIB} MiB), ${seconds.toFixed(1)} s`,
  );
  expect(peakMib).toBeLessThanOrEqual(PEAK_BOUND_MIB);
});
