import { describe, expect, it } from 'vitest';
import { withSwitch } from '../../../../src/hooks/config/hookSwitches';
import { renderExplanation } from '../../../../src/hooks/explain/explainReport';

// The "Why these hooks?" document and the Disable / Enable switch's setting edit.

describe('renderExplanation', () => {
  it('lists each hook with its outcome, reason and source, then the input', () => {
    const text = renderExplanation('Why these hooks? PreToolUse (Bash)', { tool_name: 'Bash' }, [
      {
        event: 'PreToolUse',
        command: './guard.sh',
        type: 'command',
        matcher: 'Bash',
        source: '.claude/settings.json › hooks.PreToolUse[0].hooks[0]',
        outcome: 'would run',
        reason: 'matcher `Bash` matches tool_name `Bash`',
      },
      {
        event: 'PreToolUse',
        command: 'fmt',
        type: 'command',
        source: 'user settings › hookwise.hooks.PreToolUse[0].hooks[0]',
        outcome: 'skipped',
        reason: 'disabled by hookwise.hooks.disabled',
      },
    ]);
    expect(text).toContain(
      '- **would run** — `./guard.sh` (matcher `Bash`)\n  - matcher `Bash` matches tool_name `Bash`\n  - from .claude/settings.json › hooks.PreToolUse[0].hooks[0]',
    );
    expect(text).toContain('- **skipped** — `fmt`\n  - disabled by hookwise.hooks.disabled');
    expect(text).toContain('"tool_name": "Bash"');
    expect(renderExplanation('x', {}, [])).toContain('No hooks are configured for this event.');
  });
});

describe('withSwitch', () => {
  it('adds an id once, removes it on enable, and drops values that are not strings', () => {
    expect(withSwitch(['a', 3], 'b', true)).toEqual(['a', 'b']);
    expect(withSwitch(['a', 'b'], 'b', true)).toEqual(['a', 'b']);
    expect(withSwitch(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(withSwitch(undefined, 'a', false)).toEqual([]);
  });
});
