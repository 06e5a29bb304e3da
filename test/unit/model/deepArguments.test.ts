import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parsePromptHookAnswer } from '../../../src/hooks/actions/parsePromptHookAnswer';
import { defineTool } from '../../../src/agent/tools/tool';
import { validateToolInput } from '../../../src/agent/tools/validateToolInput';
import { toOpenAiMessage } from '../../../src/model/openAiRequest';
import { parsePlaygroundScriptText } from '../../../src/model/playgroundScript';

/**
 * Deeply nested JSON at the boundaries other than hook stdout: JSON nested 5000 deep parses,
 * but overflows the stack wherever it is serialized or parsed recursively again. Each boundary
 * refuses it with a message naming the cause instead of throwing a RangeError.
 */

const DEEP = `${'['.repeat(5000)}1${']'.repeat(5000)}`;

const tool = defineTool({
  name: 'Probe',
  description: 'test',
  inputSchema: z.object({ command: z.string(), extra: z.unknown().optional() }),
  readOnly: true,
  needsApproval: false,
  summarize: (i) => i.command,
  execute: () => Promise.resolve({ content: 'ok', isError: false }),
});

describe('deep JSON at the boundaries', () => {
  it('tool arguments as text: refused with "tool arguments nested deeper than 64 levels"', () => {
    expect(validateToolInput(tool, `{"command":"ls","extra":${DEEP}}`)).toEqual({ ok: false, error: 'Probe: tool arguments nested deeper than 64 levels' });
  });

  it('tool arguments as an object (an adapter that hands objects over): refused the same way', () => {
    let extra: unknown = 1;
    for (let i = 0; i < 5000; i++) extra = [extra];
    expect(validateToolInput(tool, { command: 'ls', extra })).toEqual({ ok: false, error: 'Probe: tool arguments nested deeper than 64 levels' });
  });

  it('a prompt hook answer nested too deep is not an answer, and says why', () => {
    expect(parsePromptHookAnswer(`{"ok":true,"x":${DEEP}}`)).toEqual({ ok: false, problem: 'the answer is nested deeper than 64 levels' });
  });

  it('a playground script with a deep input is an error result naming the file, not a crash', () => {
    expect(parsePlaygroundScriptText(`{"turns":[{"toolCalls":[{"name":"Bash","input":{"x":${DEEP}}}]}]}`, 'deep.json')).toEqual({
      ok: false,
      error: 'deep.json: not valid JSON (nested too deep to read)',
    });
    const nested = `${'['.repeat(100)}1${']'.repeat(100)}`;
    expect(parsePlaygroundScriptText(`{"turns":[{"toolCalls":[{"name":"Bash","input":{"x":${nested}}}]}]}`, 'deep.json')).toEqual({
      ok: false,
      error: 'deep.json › turns[0].toolCalls[0].input: "input" is nested deeper than 64 levels',
    });
  });

  it('deep arguments are replayed to an OpenAI-compatible server as {} (like broken JSON), flat ones as sent', () => {
    const call = (argumentsText: string) => toOpenAiMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'Bash', argumentsText }] });
    expect(JSON.stringify(call(`{"command":"ls","x":${DEEP}}`))).toContain('"arguments":"{}"');
    expect(JSON.stringify(call('{"command":"ls"}'))).toContain('"arguments":"{\\"command\\":\\"ls\\"}"');
  });
});
