import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/agent/compaction';
import type { ModelMessage } from '../../../src/model/modelClient';
import { toOpenAiMessage } from '../../../src/model/openAiRequest';

/** A session of `calls` Bash calls with short outputs, two per reply, as the model request carries it. */
function toolHeavy(calls: number): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Run the checks.' }];
  for (let i = 0; i < calls; i += 2) {
    const ids = [`call_${i}`, `call_${i + 1}`];
    messages.push({ role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'Bash', argumentsText: '{"command":"true"}' })) });
    for (const id of ids) messages.push({ role: 'tool', toolCallId: id, content: 'ok' });
  }
  return messages;
}

describe('estimateTokens', () => {
  it("counts what the request serializes for many small tool calls (ids, arguments, each message's framing), not only the text", () => {
    const messages = toolHeavy(2000);
    const serializedChars = JSON.stringify(messages.map(toOpenAiMessage)).length;
    // ≈4 characters per token of what is sent; the text alone ("ok", the arguments) is a fifth of it.
    expect(estimateTokens(messages)).toBeGreaterThan(serializedChars / 5);
    expect(estimateTokens(messages)).toBeLessThan(serializedChars / 3);
  });

  it('grows with the text of long messages as before', () => {
    const short = estimateTokens([{ role: 'user', content: 'x' }]);
    expect(estimateTokens([{ role: 'user', content: 'x'.repeat(4001) }]) - short).toBe(1000);
  });
});
