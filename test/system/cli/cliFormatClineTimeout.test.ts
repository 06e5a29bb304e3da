import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash } from '../../support/formatCliHelpers';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { survivors } from '../../support/processProbe';

// Cline gives every hook a fixed 30 s (no setting changes it) and runs the tool when a hook
// times out. This waits out the real 30 s, so it is one test in a file of its own: vitest runs it
// beside the other files instead of after them.

const suite = useCliSuite();

/** A Cline PreToolUse hook that records its pid and hangs; `late.txt` appears only if it is not killed. */
const HANGING_HOOK = '#!/usr/bin/env bash\ncat > /dev/null\necho $$ > hook.pid\nsleep 120\necho late > late.txt\n';

describe('hookwise -p with a hanging Cline hook', () => {
  it('cuts it at Cline’s fixed 30 s, kills it, and fails open: the tool still runs', async () => {
    const file = await suite.w.write('.clinerules/hooks/PreToolUse', HANGING_HOOK);
    chmodSync(file, 0o755);
    const s = await suite.serve([bash('echo ran > ran.txt'), textReply('done')]);
    const args = ['-p', 'go', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '4'];

    const out = await runCliProcess(suite.cli, suite.w, [...args, '--permission-mode', 'bypassPermissions'], {}, 90_000);

    expect(suite.w.read('ran.txt').trim()).toBe('ran');
    const run = parseJsonResult(out).hook_runs.find((r) => r.event === 'PreToolUse') as { status: string; duration_ms?: number } | undefined;
    expect(run).toMatchObject({ status: 'timed-out', hook: expect.stringContaining('.clinerules/hooks/PreToolUse') });
    // Cut at 30 s, not earlier (timers never fire early; the duration is rounded to the millisecond).
    expect(run?.duration_ms).toBeGreaterThanOrEqual(29_999);
    const pid = Number(readFileSync(path.join(suite.w.ws, 'hook.pid'), 'utf8'));
    // Killed with its group: gone (a zombie not yet reaped counts as gone) once the signal lands.
    expect(await survivors([pid], 5_000)).toEqual([]);
    expect(suite.w.exists('late.txt')).toBe(false);
  }, 120_000);
});
