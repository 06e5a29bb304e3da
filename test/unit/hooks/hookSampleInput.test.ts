import { describe, expect, it } from 'vitest';
import { sampleHookInput, startingInput } from '../../../src/hooks/hookSampleInput';

describe('sample hook input', () => {
  it('names a tool the matcher accepts, with an input for it', () => {
    expect(sampleHookInput('PreToolUse', 'Write|Edit', '/ws')).toMatchObject({
      hook_event_name: 'PreToolUse',
      cwd: '/ws',
      tool_name: 'Write',
      tool_input: { file_path: 'example.txt' },
    });
    expect(sampleHookInput('PreToolUse', undefined, '/ws')).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'npm test' } });
    expect(sampleHookInput('SessionStart', 'resume', '/ws')).toMatchObject({ source: 'resume' });
    expect(sampleHookInput('UserPromptSubmit', undefined, '/ws')).toMatchObject({ prompt: expect.any(String) });
  });

  it('starts from the last run input when the hook ran', () => {
    const last = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
    expect(startingInput({ event: 'PreToolUse', matcher: 'Bash' }, last, '/ws')).toEqual(last);
    expect(startingInput({ event: 'PreToolUse', matcher: 'Bash' }, undefined, '/ws')).toMatchObject({ tool_input: { command: 'npm test' } });
  });

  it('another agent’s hook: the first Hookwise tool its own matcher selects, in Hookwise’s words (the adapter translates)', () => {
    const copilot = { binding: { format: 'copilot' as const, nativeEvent: 'preToolUse', matcher: 'create|edit', options: { matches: 'tool' } } };
    expect(startingInput({ event: 'PreToolUse', matcher: 'create|edit', format: copilot }, undefined, '/ws')).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: 'example.txt' },
    });
    const gemini = { binding: { format: 'gemini' as const, nativeEvent: 'BeforeTool', matcher: 'run_shell_command', options: { on: 'tool' } } };
    expect(startingInput({ event: 'PreToolUse', matcher: 'run_shell_command', format: gemini }, undefined, '/ws')).toMatchObject({ tool_name: 'Bash' });
  });
});
