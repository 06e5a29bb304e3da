import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { formatWatchGlobs, formatWatchPattern, formatWatchTargets } from '../../../../src/vscode/config/formatWatchGlobs';

/** Whether the watcher's pattern for `scope` reports a change to `file` (relative, `/`-separated). */
function watched(scope: 'user' | 'project', file: string): boolean {
  return picomatch(formatWatchPattern(scope), { dot: true })(file);
}

describe('the files the VS Code watcher reloads other agents’ hooks on', () => {
  it('covers every project hook file of the six formats, created, edited or deleted', () => {
    for (const file of [
      '.github/hooks/guard.json',
      '.github/copilot/settings.json',
      '.github/copilot/settings.local.json',
      '.cursor/hooks.json',
      '.codex/hooks.json',
      '.codex/config.toml',
      '.gemini/settings.json',
      '.windsurf/hooks.json',
      '.clinerules/hooks/PreToolUse',
    ])
      expect(watched('project', file), file).toBe(true);
  });

  it('covers the user hook files under the home directory', () => {
    for (const file of [
      '.copilot/hooks/team.json',
      '.cursor/hooks.json',
      '.codex/hooks.json',
      '.codex/config.toml',
      '.gemini/settings.json',
      '.codeium/windsurf/hooks.json',
      'Documents/Cline/Hooks/TaskStart',
    ])
      expect(watched('user', file), file).toBe(true);
  });

  it('covers a deleted folder that held hook files (it is reported alone)', () => {
    for (const folder of ['.github', '.github/hooks', '.cursor', '.clinerules/hooks']) expect(watched('project', folder), folder).toBe(true);
  });

  it('leaves the other files of those folders alone', () => {
    for (const file of ['.github/workflows/ci.yml', '.github/hooks/README.md', '.cursor/rules/style.mdc', '.gemini/GEMINI.md', 'src/.cursor/hooks.json'])
      expect(watched('project', file), file).toBe(false);
  });

  it('lists each glob once, none with a brace (one watcher takes them as {a,b,…})', () => {
    for (const scope of ['user', 'project'] as const) {
      const globs = formatWatchGlobs(scope);
      expect(new Set(globs).size).toBe(globs.length);
      expect(globs.filter((g) => /[{}]/.test(g))).toEqual([]);
    }
  });

  it('watches each existing folder of the loaded foreign hook files on its own, for the names read there', () => {
    const inputs = standardConfigSources({ homeDir: '/home/u', folders: [{ root: '/ws' }], formats: ['copilot', 'cursor', 'cline'] });
    const existing = new Set(['/', '/home', '/home/u', '/ws', '/ws/.github', '/ws/.github/hooks', '/ws/.cursor', '/ws/.clinerules/hooks', '/home/u/.cursor']);
    expect(formatWatchTargets(inputs, (dir) => existing.has(dir))).toEqual([
      { base: '/home/u', pattern: '.copilot' },
      { base: '/home/u', pattern: 'Documents' },
      { base: '/home/u/.cursor', pattern: 'hooks.json' },
      { base: '/ws/.clinerules/hooks', pattern: '*' },
      { base: '/ws/.cursor', pattern: 'hooks.json' },
      { base: '/ws/.github', pattern: 'copilot' },
      { base: '/ws/.github/hooks', pattern: '*.json' },
    ]);
  });

  it('watches a missing folder through its nearest parent, for the name that starts it; none of a format that is off', () => {
    const inputs = standardConfigSources({ homeDir: '/home/u', folders: [{ root: '/ws' }], formats: ['codex'] });
    expect(formatWatchTargets(inputs, (dir) => ['/', '/home', '/home/u', '/ws', '/ws/.codex'].includes(dir))).toEqual([
      { base: '/home/u', pattern: '.codex' },
      { base: '/ws/.codex', pattern: 'config.toml' },
      { base: '/ws/.codex', pattern: 'hooks.json' },
    ]);
  });
});
