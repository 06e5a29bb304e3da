import { describe, expect, it } from 'vitest';
import { hookDefinitionKey, settingsHookKeys } from '../../../src/hooks/config/hookDefinitionKeys';

describe('settingsHookKeys', () => {
  it('keys each hook of a settings text by what it says, not where it sits', () => {
    const a = settingsHookKeys(
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo a"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo b"}]}]}}',
    );
    const moved = settingsHookKeys(
      '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"command":"echo b","type":"command"}]}],"Stop":[{"hooks":[{"type":"command","command":"echo a"}]}]}}',
    );
    expect(a.size).toBe(2);
    expect([...a].sort()).toEqual([...moved].sort());
    expect(a.has(hookDefinitionKey({ event: 'PreToolUse', matcher: 'Bash', handler: { type: 'command', command: 'echo b' } }))).toBe(true);
    expect(a.has(hookDefinitionKey({ event: 'PreToolUse', matcher: 'Edit', handler: { type: 'command', command: 'echo b' } }))).toBe(false);
  });

  it('reads what it can of a broken text and nothing of an empty one', () => {
    expect(settingsHookKeys('').size).toBe(0);
    expect(settingsHookKeys('{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo a"}]}]},').size).toBe(1);
  });
});
