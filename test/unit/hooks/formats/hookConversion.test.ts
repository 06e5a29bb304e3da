import { describe, expect, it } from 'vitest';
import { hookFormatAdapter } from '../../../../src/hooks/formats/formatRegistry';
import { convertFormatHooks, type HookConversion } from '../../../../src/hooks/formats/hookConversion';
import { mergeConvertedHooks } from '../../../../src/hooks/formats/hookConversionMerge';
import { locateFormatFile } from '../../../../src/hooks/formats/formatFileLocate';
import type { HookFormatId } from '../../../../src/hooks/formats/hookFormat';
import { testClaudeMatcher } from '../../../../src/hooks/matchers/claudeMatcher';

/** Parses `text` as the adapter of `format` does for the loader, then converts it. */
function convert(format: HookFormatId, displayFile: string, text: string): HookConversion {
  const adapter = hookFormatAdapter(format);
  if (adapter === undefined) throw new Error(`no ${format} adapter`);
  const content = adapter.parse(text, { file: `/ws/${displayFile}`, displayFile, scope: 'project' });
  return convertFormatHooks({ format, displayFile, hooks: content.hooks, diagnostics: content.diagnostics, text });
}

const reasonOf = (c: HookConversion, pathEnd: string): string | undefined => c.notConverted.find((n) => n.label.endsWith(pathEnd))?.reason;

describe('Convert Hooks: Codex', () => {
  const file = JSON.stringify({
    hooks: {
      SessionStart: [{ matcher: 'start', hooks: [{ type: 'command', command: './context.sh' }] }],
      Stop: [{ hooks: [{ type: 'command', command: './tests-pass.sh', timeout: 5 }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: './bye.sh' }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './policy.sh' }] }],
      PostToolUse: [{ hooks: [{ type: 'command', command: './after.sh' }] }],
      PreCompact: [{ hooks: [{ type: 'command', command: './keep.sh' }] }],
    },
  });

  it("converts the events Codex reads as Claude Code does, with Codex's time limits and its matcher meaning", () => {
    const c = convert('codex', '.codex/hooks.json', file);
    expect(c.converted.map((h) => [h.event, h.matcher, h.handler])).toEqual([
      ['SessionStart', '(?:start)', { type: 'command', command: './context.sh', timeout: 600 }],
      ['Stop', undefined, { type: 'command', command: './tests-pass.sh', timeout: 5 }],
      ['SessionEnd', undefined, { type: 'command', command: './bye.sh', timeout: 1 }],
    ]);
    expect(c.converted[0]?.from).toBe('Codex .codex/hooks.json › hooks.SessionStart[0].hooks[0]');
    // Codex's unanchored "start" selects "startup"; Claude would test a plain name for equality, so it stays a regex.
    const matcher = c.converted[0]?.matcher ?? '';
    expect(['startup', 'resume', 'clear', 'compact'].filter((s) => testClaudeMatcher(matcher, s))).toEqual(['startup']);
    expect(c.caveats.join(' ')).toContain('turn_id');
  });

  it('lists each hook it does not convert once, with the reason', () => {
    const c = convert('codex', '.codex/hooks.json', file);
    expect(c.notConverted.map((n) => n.label)).toEqual([
      'Codex .codex/hooks.json › hooks.PreToolUse[0].hooks[0]',
      'Codex .codex/hooks.json › hooks.PostToolUse[0].hooks[0]',
      'Codex .codex/hooks.json › hooks.PreCompact[0].hooks[0]',
    ]);
    expect(reasonOf(c, 'PreToolUse[0].hooks[0]')).toMatch(/ask.*apply_patch/);
    expect(reasonOf(c, 'PostToolUse[0].hooks[0]')).toContain('PostToolUseFailure');
    expect(reasonOf(c, 'PreCompact[0].hooks[0]')).toContain('compaction instructions');
  });

  it('a hook with a Windows variant does not convert, from hooks.json or config.toml', () => {
    const json = convert(
      'codex',
      '.codex/hooks.json',
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: './a.sh', commandWindows: 'a.cmd' }] }] } }),
    );
    expect(json.converted).toEqual([]);
    expect(reasonOf(json, 'Stop[0].hooks[0]')).toContain('"commandWindows"');
    const toml = convert('codex', '.codex/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = "./a.sh"\ncommandWindows = "a.cmd"\n');
    expect(reasonOf(toml, 'Stop[0].hooks[0]')).toContain('"commandWindows"');
    const plain = convert('codex', '.codex/config.toml', '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = "./a.sh"\n');
    expect(plain.converted.map((h) => h.handler.command)).toEqual(['./a.sh']);
  });

  it('a hook type Codex skips is listed from the file, not silently dropped', () => {
    const c = convert('codex', '.codex/hooks.json', JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }] } }));
    expect(c.converted).toEqual([]);
    expect(c.notConverted).toEqual([{ label: 'Codex .codex/hooks.json › hooks.Stop[0].hooks[0].type', reason: expect.stringContaining('skips') }]);
  });
});

describe('Convert Hooks: Copilot', () => {
  it('converts a PascalCase SessionEnd with the 30 s default written out, and refuses fail-closed preToolUse', () => {
    const c = convert(
      'copilot',
      '.github/hooks/guard.json',
      JSON.stringify({
        version: 1,
        hooks: {
          preToolUse: [{ type: 'command', bash: './guard.sh' }],
          PreToolUse: [{ type: 'command', bash: './guard.sh', matcher: 'Bash' }],
          SessionEnd: [
            { type: 'command', command: './bye.sh' },
            { type: 'command', command: './bye.sh', env: { LOG: '1' } },
            { type: 'command', bash: './bye.sh', powershell: '.\\bye.ps1' },
          ],
          sessionStart: [{ type: 'command', bash: './hello.sh' }],
        },
      }),
    );
    expect(c.converted.map((h) => [h.event, h.handler])).toEqual([['SessionEnd', { type: 'command', command: './bye.sh', timeout: 30 }]]);
    expect(reasonOf(c, 'hooks.preToolUse[0]')).toMatch(/fails closed/);
    expect(reasonOf(c, 'hooks.PreToolUse[0]')).toMatch(/fails closed/);
    expect(reasonOf(c, 'hooks.SessionEnd[1]')).toContain('LOG');
    // Copilot runs "bash" on Unix and "powershell" (or nothing) on Windows; one Claude command runs everywhere.
    expect(reasonOf(c, 'hooks.SessionEnd[2]')).toMatch(/depends on the platform \("bash", "powershell"/);
    expect(reasonOf(c, 'hooks.sessionStart[0]')).toContain('camelCase');
  });
});

describe('Convert Hooks: formats whose input is not Claude Code’s', () => {
  it('Cursor: nothing converts, and the reason names its own input', () => {
    const c = convert(
      'cursor',
      '.cursor/hooks.json',
      JSON.stringify({
        version: 1,
        hooks: { beforeShellExecution: [{ command: './block-git.sh', failClosed: true }], stop: [{ command: './again.sh' }] },
      }),
    );
    expect(c.converted).toEqual([]);
    expect(c.notConverted.map((n) => n.label)).toEqual([
      'Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]',
      'Cursor .cursor/hooks.json › hooks.stop[0]',
    ]);
    expect(reasonOf(c, 'beforeShellExecution[0]')).toContain('`command`');
  });

  it('Gemini: a millisecond time limit is not enough to make it Claude’s', () => {
    const c = convert(
      'gemini',
      '.gemini/settings.json',
      JSON.stringify({ hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: './g.sh', timeout: 5000 }] }] } }),
    );
    expect(c.converted).toEqual([]);
    expect(reasonOf(c, 'BeforeTool[0].hooks[0]')).toContain('run_shell_command');
  });

  it('Windsurf and Cline: nothing converts', () => {
    const w = convert('windsurf', '.windsurf/hooks.json', JSON.stringify({ hooks: { pre_run_command: [{ command: './w.sh' }] } }));
    expect(w.converted).toEqual([]);
    expect(reasonOf(w, 'pre_run_command[0]')).toContain('Windsurf');
    const c = convert('cline', '.clinerules/hooks/PreToolUse', '#!/bin/sh\necho {}\n');
    expect(c.converted).toEqual([]);
    expect(c.notConverted.map((n) => n.reason).join(' ')).toContain('Cline');
  });
});

describe('merging converted hooks into .claude/settings.json', () => {
  const stop = { event: 'Stop' as const, handler: { type: 'command' as const, command: './tests-pass.sh', timeout: 5 }, from: 'Codex x' };
  const start = { ...stop, event: 'SessionStart' as const, matcher: '(?:start)', handler: { ...stop.handler, command: './context.sh' } };

  it('keeps comments, and never adds an identical entry twice', () => {
    const before = '{\n  // the team\'s rules\n  "permissions": { "deny": [] }\n}\n';
    const first = mergeConvertedHooks(before, [stop, start]);
    expect(first.added).toHaveLength(2);
    expect(first.text).toContain("// the team's rules");
    const again = mergeConvertedHooks(first.text, [stop, start]);
    expect(again.added).toEqual([]);
    expect(again.present).toHaveLength(2);
    expect(again.text).toBe(first.text);
    // Another matcher or time limit is another entry.
    expect(mergeConvertedHooks(first.text, [{ ...start, matcher: 'resume' }]).added).toHaveLength(1);
  });

  it('a new file gets the hooks object', () => {
    const merged = mergeConvertedHooks('', [stop]);
    expect(JSON.parse(merged.text)).toEqual({ hooks: { Stop: [{ hooks: [stop.handler] }] } });
  });
});

describe('locating a hooks file', () => {
  it('knows each agent by where its file is, project or user', () => {
    expect(locateFormatFile('/ws/.codex/hooks.json', '/ws', '/home/u')).toMatchObject({ format: 'codex', scope: 'project', displayFile: '.codex/hooks.json' });
    expect(locateFormatFile('/ws/.github/hooks/guard.json', '/ws', '/home/u')).toMatchObject({ format: 'copilot', displayFile: '.github/hooks/guard.json' });
    expect(locateFormatFile('/home/u/.cursor/hooks.json', '/ws', '/home/u')).toMatchObject({
      format: 'cursor',
      scope: 'user',
      displayFile: '~/.cursor/hooks.json',
    });
    expect(locateFormatFile('/ws/.clinerules/hooks/PreToolUse', '/ws', '/home/u')).toMatchObject({ format: 'cline' });
    expect(locateFormatFile('/ws/.claude/settings.json', '/ws', '/home/u')).toBeUndefined();
    expect(locateFormatFile('/ws/.github/hooks/README.md', '/ws', '/home/u')).toBeUndefined();
  });
});
