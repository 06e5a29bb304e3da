import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { lintHooks } from '../../../../src/hooks/lint/hookLint';

// Hook lint on other agents' hook files: a tool matcher is judged by that agent's matcher on that
// agent's tool names (Copilot `bash`, Gemini `run_shell_command`), never by Claude's; warnings name
// the file and the line of the field as the agent wrote it.

let dir: string;
let home: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-format-lint-'));
  home = await mkdtemp(path.join(os.tmpdir(), 'hookwise-format-lint-home-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

/** Writes the files, loads the folder as the extension does and lints its hooks with the texts the loader read. */
async function lint(files: Record<string, unknown>) {
  for (const [rel, value] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), JSON.stringify(value, null, 2));
  }
  const config = await loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: dir }], managedSettingsFile: null }));
  const texts = new Map<string, string>();
  for (const rel of Object.keys(files)) texts.set(path.join(dir, rel), await readFile(path.join(dir, rel), 'utf8'));
  const diagnostics = await lintHooks(config.hooks, { projectDir: dir, homeDir: home, textOf: (f) => texts.get(f) });
  return diagnostics.map((d) => ({ file: d.displayFile, jsonPath: d.jsonPath, line: d.line, code: d.code, message: d.message, suggestion: d.suggestion }));
}

describe('lintHooks on other agents’ hook files', () => {
  it('Copilot: its own tool names pass; a misspelt one never matches, at its line, with the close Copilot name', async () => {
    const found = await lint({
      '.github/hooks/guard.json': {
        version: 1,
        hooks: {
          preToolUse: [
            { type: 'command', bash: 'true', matcher: 'bash|view' },
            { type: 'command', bash: 'true', matcher: 'bsh' },
          ],
        },
      },
    });
    expect(found).toEqual([
      {
        file: '.github/hooks/guard.json',
        jsonPath: 'hooks.preToolUse[1].matcher',
        line: 13,
        code: 'unknownTool',
        message: expect.stringMatching(/^matcher `bsh` selects none of Copilot's tool names \(bash, .*\), so this hook never runs — did you mean `bash`\?$/),
        suggestion: 'bash',
      },
    ]);
  });

  it('Gemini: a Claude tool name in a Gemini file never matches (Gemini calls it run_shell_command); Gemini names pass', async () => {
    const found = await lint({
      '.gemini/settings.json': {
        hooks: {
          BeforeTool: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] },
            { matcher: 'run_shell_command|write_file', hooks: [{ type: 'command', command: 'true' }] },
            { matcher: 'mcp_.*', hooks: [{ type: 'command', command: 'true' }] },
          ],
        },
      },
    });
    expect(found.map((d) => [d.jsonPath, d.code, d.suggestion])).toEqual([['hooks.BeforeTool[0].matcher', 'unknownTool', 'run_shell_command']]);
    expect(found[0]?.message).toContain("selects none of Gemini's tool names (run_shell_command, read_file");
  });

  it('matchers on something else than tool names are not judged as tool names: Cursor’s command text, Codex’s Edit alias', async () => {
    const found = await lint({
      '.cursor/hooks.json': {
        version: 1,
        hooks: { beforeShellExecution: [{ command: 'true', matcher: 'curl|wget' }], preToolUse: [{ command: 'true', matcher: 'Shell' }] },
      },
      '.codex/hooks.json': { hooks: { PreToolUse: [{ matcher: '^(Edit|Write)$', hooks: [{ type: 'command', command: 'true' }] }] } },
    });
    expect(found).toEqual([]);
  });

  it('names that may be the agent’s own or an MCP server’s tools are not judged: far from every known name, or naming MCP', async () => {
    const found = await lint({
      '.github/hooks/guard.json': { version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'true', matcher: 'get_issue' }] } },
      '.cursor/hooks.json': { version: 1, hooks: { preToolUse: [{ command: 'true', matcher: 'MCP:search' }] } },
    });
    expect(found).toEqual([]);
  });

  it('a missing script is named at the field the agent wrote it in (Copilot `bash`)', async () => {
    const found = await lint({ '.github/hooks/guard.json': { version: 1, hooks: { preToolUse: [{ type: 'command', bash: './gone.sh' }] } } });
    expect(found).toEqual([expect.objectContaining({ jsonPath: 'hooks.preToolUse[0].bash', code: 'scriptMissing', line: 7 })]);
  });
});
