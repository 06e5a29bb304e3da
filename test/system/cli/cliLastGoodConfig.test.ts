/**
 * In the CLI, with real processes: a broken `.claude/settings.json` never
 * silently drops its policy. `hookwise -p` keeps a per-project copy of the last good file under
 * HOOKWISE_HOME, runs it with a warning when the file is broken, says loudly when no copy exists,
 * and with `--strict-config` exits 2 before anything runs.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptDirFor } from '../../../src/agent/transcriptLocation';
import { hookCommand, parseJsonResult } from '../../support/cliHarness';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();

const GOOD = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('deny-rm.cjs') }] }] } };
const WARNING = 'hookwise: warning: project hooks from .claude/settings.json: last good version in force, the file has an error';

/** The settings file with one line deleted (the `"PreToolUse": [` line): a syntax error that loses every hook of the file. */
function breakSettings(): void {
  const file = path.join(suite.w.ws, '.claude', 'settings.json');
  writeFileSync(
    file,
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !line.includes('"PreToolUse"'))
      .join('\n'),
  );
}

/** A model that asks to `rm keep.txt` once, then answers. `--allowed-tools Bash` (not the file) allows it, so only the hook stands in the way. */
async function rmRun(...extra: string[]) {
  const s = await suite.serve([toolCallsReply([{ id: 'call_rm', name: 'Bash', arguments: { command: 'rm keep.txt' } }]), textReply('done')]);
  const out = await suite.runPrompt(s, 'clean up', 4, '--allowed-tools', 'Bash', ...extra);
  return { s, out };
}

describe('hookwise -p with a broken hook config file', () => {
  it('runs the last good copy of the file, kept per project under HOOKWISE_HOME, and warns', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings(GOOD);
    const first = await rmRun();
    expect(first.out.code).toBe(0);
    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(first.out.stderr).not.toContain('last good version');
    const copies = path.join(transcriptDirFor(suite.w.ws, { HOOKWISE_HOME: suite.w.hookwiseHome }), 'last-good-config');
    expect(existsSync(copies) && readdirSync(copies).length).toBe(1);

    breakSettings();
    const second = await rmRun();
    expect(second.out.stderr).toContain(WARNING);
    expect(second.out.stderr).toMatch(/syntax error/i);
    expect(second.out.code).toBe(0);
    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(parseJsonResult(second.out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'blocked', decision: 'deny' }));
  });

  it('--strict-config exits 2 on a broken file, before the model or any hook runs', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings(GOOD);
    expect((await rmRun()).out.code).toBe(0);
    breakSettings();
    const { s, out } = await rmRun('--strict-config');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(WARNING);
    expect(out.stderr).toContain('--strict-config');
    expect(s.requests).toHaveLength(0);
    expect(suite.w.read('keep.txt')).toBe('precious');
  });

  it('with no good copy known, says loudly that the file’s hooks are not in force', async () => {
    await suite.w.settings(GOOD);
    breakSettings();
    const { out } = await rmRun('--strict-config');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('hookwise: warning: project hooks from .claude/settings.json are NOT in force: the file has an error');
  });
});
