import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// The self-protection backstop compares the protected set before and after each Bash call. A
// hook that runs during the call (here FileChanged, fired by the command's own write) is
// approved code: the log it appends to under .claude/hooks is its own and is kept. A policy file
// changed in the same window is still reverted, whoever could have written it.

const suite = useCliSuite();

const LOG = '.claude/hooks/audit.jsonl';
const appendLog = { type: 'command', command: `cat >> "$CLAUDE_PROJECT_DIR/${LOG}"; echo >> "$CLAUDE_PROJECT_DIR/${LOG}"` };

async function setup(): Promise<void> {
  await mkdir(path.join(suite.w.ws, '.claude', 'hooks'), { recursive: true });
  await writeFile(path.join(suite.w.ws, LOG), '');
  await suite.w.write('.envrc', 'export A=1\n');
  await suite.w.settings({ hooks: { FileChanged: [{ matcher: '.envrc', hooks: [appendLog] }] } });
}

async function run(command: string): Promise<{ stderr: string }> {
  const s = await suite.serve([
    toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command } }]),
    toolCallsReply([{ id: 'b2', name: 'Bash', arguments: { command: 'sleep 0.5' } }]),
    textReply('done'),
  ]);
  return suite.runPrompt(s, 'go', 8, '--permission-mode', 'bypassPermissions');
}

describe('the self-protection backstop and hooks that write while a tool runs', () => {
  it("keeps a hook's own log line written under .claude/hooks during a Bash call", async () => {
    await setup();
    const out = await run('echo "export B=2" >> .envrc; sleep 1');
    const log = await readFile(path.join(suite.w.ws, LOG), 'utf8');
    expect(log).toContain('"hook_event_name":"FileChanged"');
    expect(out.stderr).not.toContain('Self-protection');
  });

  it('still reverts a policy file changed in the same window', async () => {
    await setup();
    const settingsFile = path.join(suite.w.ws, '.claude', 'settings.json');
    const original = await readFile(settingsFile, 'utf8');
    // The name is built at run time, so only the backstop can see it.
    const out = await run(
      `echo "export B=2" >> .envrc; node -e "require('fs').writeFileSync(String.fromCharCode(46) + 'claude/settings.json', '{}')"; sleep 1`,
    );
    expect(await readFile(settingsFile, 'utf8')).toBe(original);
    expect(out.stderr).toContain('Self-protection');
    expect(await readFile(path.join(suite.w.ws, LOG), 'utf8')).toContain('"hook_event_name":"FileChanged"');
  });
});
