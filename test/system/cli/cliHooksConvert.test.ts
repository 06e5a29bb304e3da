import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

// `hookwise hooks convert`: a team moving a Codex hooks file to Claude Code's settings gets the
// entries that behave the same, the list of what does not carry over, and a merge that keeps the
// settings file's comments. The converted hook is then run for real and decides as the original did.

const suite = useCliSuite();

const PERMISSIONS = '  // reviewed by the platform team\n  "permissions": {\n    "deny": ["Bash(curl:*)"]\n  }';
const SETTINGS = `{\n${PERMISSIONS}\n}\n`;

interface StopRun {
  readonly run: { decision: string; reason?: string; hooks: { source: string }[] };
}

async function codexWorkspace(): Promise<void> {
  const { w } = suite;
  await w.write('check-tests.sh', '#!/bin/sh\ncat > /dev/null\necho "run the tests first" >&2\nexit 2\n');
  await w.write(
    '.codex/hooks.json',
    JSON.stringify({
      hooks: {
        Stop: [{ hooks: [{ type: 'command', command: 'sh check-tests.sh', timeout: 20 }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh policy.sh' }] }],
      },
    }),
  );
  await w.write('.claude/settings.json', SETTINGS);
}

async function explainStop(): Promise<StopRun> {
  const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'Stop', '--run', '--json']);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as StopRun;
}

describe('hookwise hooks convert', () => {
  it('prints the exact entries and what does not convert, writes them once with comments kept, and the converted hook decides as the original', async () => {
    await codexWorkspace();
    const original = await explainStop();
    expect(original.run.decision).toBe('block');
    expect(original.run.hooks.map((h) => h.source)).toEqual(['Codex .codex/hooks.json › hooks.Stop[0].hooks[0]']);

    const preview = await runCliProcess(suite.cli, suite.w, ['hooks', 'convert', '.codex/hooks.json']);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('Converted (1), as .claude/settings.json entries:');
    expect(preview.stdout).toContain('"command": "sh check-tests.sh"');
    expect(preview.stdout).toMatch(/Not converted \(1\):\n {2}Codex \.codex\/hooks\.json › hooks\.PreToolUse\[0\]\.hooks\[0\]\n {6}Codex reads `ask`/);
    expect(preview.stdout).toContain('Run again with --write');
    expect(await suite.w.read('.claude/settings.json')).toBe(SETTINGS);

    const write = await runCliProcess(suite.cli, suite.w, ['hooks', 'convert', '.codex/hooks.json', '--write', '--json']);
    expect(write.code).toBe(0);
    const out = JSON.parse(write.stdout) as { settings: unknown; notConverted: { label: string }[]; written: { added: number; present: number } };
    expect(out.settings).toEqual({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'sh check-tests.sh', timeout: 20 }] }] } });
    expect(out.written).toMatchObject({ added: 1, present: 0 });
    const written = await suite.w.read('.claude/settings.json');
    expect(written).toContain(PERMISSIONS);

    const again = await runCliProcess(suite.cli, suite.w, ['hooks', 'convert', '.codex/hooks.json', '--write']);
    expect(again.stdout).toContain('Wrote 0 entries to');
    expect(again.stdout).toContain('(1 already there)');
    expect(await suite.w.read('.claude/settings.json')).toBe(written);

    // With the original removed (as the output advises), the converted entry alone gives the same answer.
    await rm(path.join(suite.w.ws, '.codex', 'hooks.json'));
    const converted = await explainStop();
    expect(converted.run.decision).toBe(original.run.decision);
    expect(converted.run.reason).toBe(original.run.reason);
    expect(converted.run.hooks.map((h) => h.source)).toEqual(['.claude/settings.json › hooks.Stop[0].hooks[0]']);
  });

  it('converts nothing from a Cursor file and says why; a file no agent reads is bad usage', async () => {
    await suite.w.write(
      '.cursor/hooks.json',
      JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './block-git.sh', failClosed: true }] } }),
    );
    const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'convert', '.cursor/hooks.json', '--write']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing converts exactly.');
    expect(run.stdout).toMatch(/Cursor \.cursor\/hooks\.json › hooks\.beforeShellExecution\[0\]\n {6}Cursor sends its own input/);
    expect(run.stdout).toContain('Nothing to write to');
    const bad = await runCliProcess(suite.cli, suite.w, ['hooks', 'convert', 'notes.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a hooks file another agent reads');
  });
});
