import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { useCliSuite } from '../support/cliSuite';
import { describePid, killAll, pidsIn, sleep, spawnCli, survivorsIn, writePlayground } from './support/procHarness';
import { seededRandom } from './support/seededRandom';

/**
 * Transcript durability under kill -9 (docs/security.md): CLI sessions busy with tool calls and hooks
 * are SIGKILLed at seeded random moments. Safe outcome for each: every line of the transcript
 * parses as JSON (no torn line), and `--resume` of the session works (exit 0, the history
 * reaches the model, no line skipped), and no hook or Bash process of the killed CLI is left
 * running (its watchdog kills their process groups).
 */

const SESSIONS = 12;
const SEED = 0x12_2026;
const TURNS = 40;

const suite = useCliSuite();

function transcripts(hookwiseHome: string): string[] {
  const projects = path.join(hookwiseHome, 'projects');
  if (!existsSync(projects)) return [];
  return readdirSync(projects).flatMap((slug) =>
    readdirSync(path.join(projects, slug))
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(projects, slug, f)),
  );
}

it(
  `[adversarial] transcript durability: ${SESSIONS} sessions killed with SIGKILL at random points keep whole lines and resume`,
  { timeout: 120_000 },
  async () => {
    const w = suite.w;
    const random = seededRandom(SEED);
    await w.settings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'cat >/dev/null; echo $$ >> pids; echo checked' },
              // An audit hook still running when the CLI is killed: it must not outlive the CLI.
              { type: 'command', async: true, command: 'cat >/dev/null; echo $$ >> pids; sleep 30' },
            ],
          },
        ],
        PostToolUse: [
          {
            hooks: [{ type: 'command', command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"noted"}}'` }],
          },
        ],
      },
    });
    const turns = Array.from({ length: TURNS }, (_, i) => ({
      text: `step ${i} ${'words '.repeat(i * 20)}`,
      toolCalls: [{ name: 'Bash', input: { command: `echo $$ >> pids; echo output of step ${i}; sleep 0.05` } }],
    }));
    const busy = writePlayground(w, 'busy.json', [...turns, { text: 'finished' }]);
    const resume = writePlayground(w, 'resume.json', [{ text: 'resumed fine' }]);
    const failures: string[] = [];
    let lines = 0;
    let finishedBeforeKill = 0;
    const startedAt = Date.now();

    for (let i = 0; i < SESSIONS; i++) {
      const killAfterMs = Math.round(random() * 1200);
      const before = new Set(transcripts(w.hookwiseHome));
      rmSync(path.join(w.ws, 'pids'), { force: true });
      const cli = spawnCli(suite.cli, w, [
        '-p',
        `session ${i}`,
        '--model',
        busy,
        '--max-steps',
        String(TURNS + 5),
        '--output-format',
        'json',
        '--permission-mode',
        'bypassPermissions',
      ]);
      let ended = false;
      void cli.exited.then(() => (ended = true));
      // The random point is measured from the session's start (its transcript appearing), so a
      // slow start on a loaded machine does not turn the kill into a kill before the session.
      while (!ended && transcripts(w.hookwiseHome).every((f) => before.has(f))) await sleep(10);
      const exited = await Promise.race([cli.exited.then(() => true), sleep(killAfterMs).then(() => false)]);
      if (exited) finishedBeforeKill++;
      else cli.child.kill('SIGKILL');
      await cli.exited;
      const label = `session ${i} (killed ${killAfterMs} ms into the session)`;
      const pids = pidsIn(path.join(w.ws, 'pids'));
      const alive = await survivorsIn(pids, w.ws);
      if (alive.length > 0) failures.push(`${label}: hook or Bash processes still running: ${alive.map(describePid).join('; ')}`);
      killAll(alive);
      const file = transcripts(w.hookwiseHome).find((f) => !before.has(f));
      if (!file) {
        failures.push(`${label}: no transcript was written; stderr: ${cli.stderr().slice(0, 300)}`);
        continue;
      }
      const text = readFileSync(file, 'utf8');
      if (text !== '' && !text.endsWith('\n')) failures.push(`${label}: the transcript does not end with a newline (a torn last line)`);
      text.split('\n').forEach((line, n) => {
        if (line === '') return;
        lines++;
        try {
          JSON.parse(line);
        } catch {
          failures.push(`${label}: line ${n + 1} does not parse: ${line.slice(0, 80)}`);
        }
      });
      const sessionId = path.basename(file, '.jsonl');
      const resumed = spawnCli(suite.cli, w, ['-p', 'go on', '--model', resume, '--output-format', 'json', '--resume', sessionId]);
      const code = await resumed.exited;
      if (code !== 0) {
        failures.push(`${label}: resume exited ${code}: ${resumed.stderr()}`);
        continue;
      }
      const result = JSON.parse(resumed.stdout()) as { result: string; session_id: string };
      if (result.result !== 'resumed fine' || result.session_id !== sessionId) failures.push(`${label}: resume answered ${JSON.stringify(result)}`);
      if (/skipped/.test(resumed.stderr())) failures.push(`${label}: resume skipped lines: ${resumed.stderr()}`);
    }

    console.log(
      `[adversarial] transcript-durability: ${SESSIONS} cases, ${failures.length} failures, ${SESSIONS - finishedBeforeKill} killed mid-session (seed ${SEED}), ${lines} transcript lines checked, ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
    );
    expect(failures).toEqual([]);
    expect(SESSIONS - finishedBeforeKill).toBeGreaterThanOrEqual(10);
  },
);
