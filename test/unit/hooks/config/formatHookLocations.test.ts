import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { locateHooks } from '../../../../src/hooks/config/hookLocations';
import { hookLocationId } from '../../../../src/hooks/config/hookSwitches';
import type { HookFormatId } from '../../../../src/hooks/formats/hookFormat';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function slice(text: string, span: { offset: number; length: number }): string {
  return text.slice(span.offset, span.offset + span.length);
}

/** Writes `text` at `rel` in a fresh folder, loads it as the loader does, and locates its hooks as the lenses do. */
async function both(format: HookFormatId, rel: string, text: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-locate-format-'));
  dirs.push(dir);
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  const config = await loadHookConfig([{ kind: 'formatFile', format, scope: 'project', file, displayFile: rel }]);
  const label = `${config.hooks[0]?.source.kind === 'file' ? config.hooks[0].source.format : '?'} ${rel}`;
  const located = locateHooks(text, { label, shape: 'format', format: { id: format, file, displayFile: rel, scope: 'project' } });
  return { loadedIds: config.hooks.map((h) => hookLocationId(h)), located };
}

describe('locateHooks on other agents’ hook files', () => {
  it('Copilot: each entry with the loaded hook’s id, its native event, matcher and command string', async () => {
    const text = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      { "type": "command", "bash": "./guard.sh", "matcher": "bash" },
      { "type": "prompt", "prompt": "not carried over" },
      { "type": "command", "bash": "./audit.sh" }
    ]
  }
}`;
    const { loadedIds, located } = await both('copilot', '.github/hooks/guard.json', text);
    expect(located.map((h) => h.id)).toEqual(loadedIds);
    expect(located.map((h) => [h.id, h.event, h.nativeEvent, h.matcher])).toEqual([
      ['Copilot .github/hooks/guard.json › hooks.preToolUse[0]', 'PreToolUse', 'preToolUse', 'bash'],
      ['Copilot .github/hooks/guard.json › hooks.preToolUse[2]', 'PreToolUse', 'preToolUse', undefined],
    ]);
    expect(slice(text, located[0]!.range)).toBe('{ "type": "command", "bash": "./guard.sh", "matcher": "bash" }');
    expect(slice(text, located[0]!.body!)).toBe('"./guard.sh"');
  });

  it('Gemini: handlers inside matcher groups', async () => {
    const text = JSON.stringify({ hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: './gate.sh' }] }] } }, null, 2);
    const { loadedIds, located } = await both('gemini', '.gemini/settings.json', text);
    expect(located.map((h) => h.id)).toEqual(loadedIds);
    expect(located.map((h) => [h.id, h.nativeEvent, h.matcher])).toEqual([
      ['Gemini .gemini/settings.json › hooks.BeforeTool[0].hooks[0]', 'BeforeTool', 'run_shell_command'],
    ]);
    expect(slice(text, located[0]!.body!)).toBe('"./gate.sh"');
  });

  it('Codex config.toml: each hook at its command string, in file order (a repeated command included)', async () => {
    const text = [
      '[[hooks.PreToolUse]]',
      'matcher = "^Bash$"',
      '[[hooks.PreToolUse.hooks]]',
      'command = "./x.sh"',
      '[[hooks.Stop]]',
      '[[hooks.Stop.hooks]]',
      "command = './x.sh'",
      '',
    ].join('\n');
    const { loadedIds, located } = await both('codex', '.codex/config.toml', text);
    expect(located.map((h) => h.id)).toEqual(loadedIds);
    expect(located).toHaveLength(2);
    expect(located.map((h) => slice(text, h.range))).toEqual(['"./x.sh"', "'./x.sh'"]);
    expect(located[1]!.range.offset).toBeGreaterThan(located[0]!.range.offset);
  });

  it('Cline: the script is one hook, placed on its line 1', async () => {
    const text = '#!/usr/bin/env bash\necho \'{"cancel": false}\'\n';
    const { loadedIds, located } = await both('cline', '.clinerules/hooks/PreToolUse', text);
    expect(located.map((h) => h.id)).toEqual(loadedIds);
    expect(located.map((h) => [h.id, h.event, h.nativeEvent])).toEqual([['Cline .clinerules/hooks/PreToolUse', 'PreToolUse', 'PreToolUse']]);
    expect(located[0]!.range).toEqual({ offset: 0, length: '#!/usr/bin/env bash'.length });
  });
});
