import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptLinks } from '../../../../src/hooks/config/hookScriptLinks';

const context = { projectDir: '/ws', homeDir: '/home/me', pluginRoot: '/plugins/fmt' };

/** The words linked in a JSON string literal, with the file each names. */
function linked(literal: string, ctx: Parameters<typeof scriptLinks>[1] = context): [string, string][] {
  return scriptLinks(literal, ctx).map((l) => [literal.slice(l.offset, l.offset + l.length), l.file]);
}

describe('scriptLinks', () => {
  it('resolves $CLAUDE_PROJECT_DIR (quoted, escaped in JSON), ${CLAUDE_PLUGIN_ROOT}, ~ and relative paths', () => {
    expect(linked(String.raw`"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh --strict"`)).toEqual([
      [String.raw`$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh`, path.resolve('/ws/.claude/hooks/check.sh')],
    ]);
    expect(linked('"${CLAUDE_PLUGIN_ROOT}/scripts/format.sh"')).toEqual([
      ['${CLAUDE_PLUGIN_ROOT}/scripts/format.sh', path.resolve('/plugins/fmt/scripts/format.sh')],
    ]);
    expect(linked('"python3 ~/hooks/audit.py && node scripts/x.mjs"')).toEqual([
      ['~/hooks/audit.py', path.resolve('/home/me/hooks/audit.py')],
      ['scripts/x.mjs', path.resolve('/ws/scripts/x.mjs')],
    ]);
    expect(linked(`"bash --rcfile=lint.sh"`)).toEqual([['lint.sh', path.resolve('/ws/lint.sh')]]);
  });

  it('skips words it cannot resolve: other variables, globs, URLs, options, plain words, a plugin root outside a plugin', () => {
    expect(linked('"echo $HOME/x.sh *.sh https://example.com/a.sh -v done"')).toEqual([]);
    expect(linked('"${CLAUDE_PLUGIN_ROOT}/a.sh"', { projectDir: '/ws', homeDir: '/h' })).toEqual([]);
  });
});
