import { describe, expect, it } from 'vitest';
import type { ConfigDiagnostic } from '../../../../src/configFiles/configDiagnostic';
import { listAgentFiles, listSkillFiles } from '../../../../src/hooks/config/configDirectoryListing';
import { MAX_AGENT_FILES } from '../../../../src/configFiles/configLimits';

/** A file system whose every directory lists `names`, reversed (so the sort is observable). */
function fsWith(names: string[]) {
  return { readTextFile: () => Promise.resolve(undefined), listDirectory: () => Promise.resolve([...names].reverse()) };
}
const names = (n: number, suffix: string): string[] => Array.from({ length: n }, (_, i) => `a${String(i).padStart(4, '0')}${suffix}`);

describe('config directory listing', () => {
  it('reads at most MAX_AGENT_FILES agent files, sorted by name, and says so on the directory', async () => {
    const diagnostics: ConfigDiagnostic[] = [];
    const files = await listAgentFiles(
      fsWith([...names(MAX_AGENT_FILES + 3, '.md'), 'notes.txt']),
      { kind: 'agentsDirectory', scope: 'project', dir: '/p/.claude/agents', displayDir: '.claude/agents' },
      diagnostics,
    );
    expect(files).toHaveLength(MAX_AGENT_FILES);
    expect(files[0]?.displayFile).toBe('.claude/agents/a0000.md');
    expect(diagnostics.map((d) => [d.code, d.displayFile, d.message])).toEqual([
      ['tooLarge', '.claude/agents', `${MAX_AGENT_FILES + 3} agent files; only the first ${MAX_AGENT_FILES} (by name) are read`],
    ]);
  });

  it('caps skill folders the same way, each read as <name>/SKILL.md', async () => {
    const diagnostics: ConfigDiagnostic[] = [];
    const files = await listSkillFiles(
      fsWith(names(MAX_AGENT_FILES + 1, '')),
      { kind: 'skillsDirectory', scope: 'project', dir: '/p/.claude/skills', displayDir: '.claude/skills' },
      diagnostics,
    );
    expect(files).toHaveLength(MAX_AGENT_FILES);
    expect(files[0]).toMatchObject({ skill: 'a0000', displayFile: '.claude/skills/a0000/SKILL.md' });
    expect(diagnostics.map((d) => d.message)).toEqual([`${MAX_AGENT_FILES + 1} skills; only the first ${MAX_AGENT_FILES} (by name) are read`]);
  });
});
