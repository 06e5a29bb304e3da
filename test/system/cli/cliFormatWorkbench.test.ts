import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

// `hookwise hooks list|explain` with other agents' hook files: their hooks are listed with the
// format's label, what cannot carry over is a warning with file and line, and explain applies the
// agent's own matcher (Cursor's beforeShellExecution tests the command text).

const suite = useCliSuite();

async function cursorWorkspace(): Promise<void> {
  await suite.w.write(
    '.cursor/hooks.json',
    '{\n  "version": 1,\n  "hooks": {\n    "beforeShellExecution": [{ "command": "./block-net.sh", "matcher": "curl|wget" }],\n    "beforeTabFileRead": [{ "command": "./tab.sh" }]\n  }\n}\n',
  );
}

describe('hookwise hooks list|explain with a .cursor/hooks.json', () => {
  it('list names the Cursor hook with its label and warns, with file and line, about the Tab event it cannot carry over', async () => {
    await cursorWorkspace();
    const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json']);
    expect(run.code).toBe(0);
    const hooks = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(hooks.map((h) => [h.event, h.command, h.source])).toEqual([
      ['PreToolUse', './block-net.sh', 'Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]'],
    ]);
    expect(run.stderr).toMatch(/\.cursor\/hooks\.json:5:\d+ warning hooks\.beforeTabFileRead: Cursor's beforeTabFileRead is not carried over/);
  });

  it('explain applies Cursor’s matcher to the command text', async () => {
    await cursorWorkspace();
    const explain = async (command: string) => {
      const run = await runCliProcess(suite.cli, suite.w, [
        'hooks',
        'explain',
        '--event',
        'PreToolUse',
        '--tool',
        'Bash',
        '--input',
        JSON.stringify({ command }),
        '--json',
      ]);
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as { source: string; outcome: string }[]).map((r) => [r.source, r.outcome]);
    };
    expect(await explain('curl https://example.com')).toEqual([['Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]', 'would run']]);
    expect(await explain('ls')).toEqual([['Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]', 'skipped']]);
  });
});
