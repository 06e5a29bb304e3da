import { describe, expect, it } from 'vitest';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { claudeWatchTargets } from '../../../../src/vscode/config/claudeWatchTargets';

/** The targets for one folder `/ws` and home `/home/u`, the managed policy left out, with these folders existing. */
function targets(existing: readonly string[], skills: Readonly<Record<string, readonly string[]>> = {}) {
  const inputs = standardConfigSources({
    homeDir: '/home/u',
    folders: [{ root: '/ws' }],
    formats: [],
    managedSettingsFile: '/etc/claude-code/managed-settings.json',
  });
  const dirs = new Set(existing);
  return claudeWatchTargets(
    inputs,
    (dir) => dirs.has(dir),
    (dir) => skills[dir] ?? [],
  );
}

describe('the .claude folders Node watches so agents, skills and settings reload live', () => {
  it('watches each settings file by name, the agents folders for *.md, the skills folders and each skill folder for SKILL.md', () => {
    const existing = [
      '/',
      '/home',
      '/home/u',
      '/home/u/.claude',
      '/home/u/.claude/agents',
      '/ws',
      '/ws/.claude',
      '/ws/.claude/agents',
      '/ws/.claude/skills',
      '/ws/.claude/skills/tidy',
    ];
    expect(targets(existing, { '/ws/.claude/skills': ['tidy'] })).toEqual([
      { base: '/home/u/.claude', pattern: 'settings.json' },
      { base: '/home/u/.claude', pattern: 'skills' },
      { base: '/home/u/.claude/agents', pattern: '*.md' },
      { base: '/ws/.claude', pattern: 'settings.json' },
      { base: '/ws/.claude', pattern: 'settings.local.json' },
      { base: '/ws/.claude/agents', pattern: '*.md' },
      { base: '/ws/.claude/skills', pattern: '*' },
      { base: '/ws/.claude/skills/tidy', pattern: 'SKILL.md' },
    ]);
  });

  it('watches a missing .claude folder through its nearest parent, for the name that starts it; never the managed policy', () => {
    expect(targets(['/', '/home', '/home/u', '/ws', '/etc'])).toEqual([
      { base: '/home/u', pattern: '.claude' },
      { base: '/ws', pattern: '.claude' },
    ]);
  });
});
