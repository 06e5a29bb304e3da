import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer, RecordedRequest, ScriptedReply } from '../../support/openAiTestServer';
import { errorReply, textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';

// Automatic compaction headless, as Claude Code does it: before the next model call once the
// prompt the model reports passes the threshold of the context window (window − 20,000 −
// 13,000), and when the server refuses a prompt as too long (then the call is sent again).
// Real CLI process, real command hooks recording PreCompact and PostCompact, a real HTTP model.

const suite = useCliSuite();

const SUMMARY = '<summary>The user asked to read notes.txt; it says the port is 4711.</summary>';
const PROMPT = 'Read notes.txt and tell me what the OLD-PROMPT-MARKER port is.';

/** PreCompact and PostCompact each append their input to compact.jsonl. */
async function recordCompaction(): Promise<void> {
  const hook = { hooks: [{ type: 'command', command: hookCommand('record-input.cjs', path.join(suite.w.ws, 'compact.jsonl')) }] };
  await suite.w.settings({ hooks: { PreCompact: [hook], PostCompact: [hook] } });
  await suite.w.write('notes.txt', 'port 4711\n');
}

/** The summarizer's request (Hookwise's compaction prompt) is answered with SUMMARY; the others follow `script` in order. */
function withSummarizer(script: readonly ScriptedReply[]): (request: RecordedRequest) => ScriptedReply {
  let next = 0;
  return (request) => {
    const system = request.body.messages?.[0]?.content;
    if (typeof system === 'string' && system.startsWith('You are compacting')) return textReply(SUMMARY);
    return script[next++] ?? textReply('unexpected extra request');
  };
}

const isSummaryRequest = (r: RecordedRequest): boolean => String(r.body.messages?.[0]?.content ?? '').startsWith('You are compacting');
const messagesText = (r: RecordedRequest | undefined): string => JSON.stringify(r?.body.messages ?? []);

function expectAutoCompaction(): void {
  expect(suite.w.jsonLines('compact.jsonl')).toEqual([
    expect.objectContaining({ hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null }),
    expect.objectContaining({ hook_event_name: 'PostCompact', trigger: 'auto', compact_summary: SUMMARY }),
  ]);
}

const run = (s: OpenAiTestServer, ...extra: string[]) =>
  runCliProcess(suite.cli, suite.w, ['-p', PROMPT, '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '6', ...extra]);

describe('hookwise -p: automatic compaction', () => {
  it('compacts before the next model call once the reported prompt passes the threshold of --context-window; the next request carries the summary instead of the old turns', async () => {
    await recordCompaction();
    // 70,000 reported tokens: over the threshold of a 100,000 window (67,000), far under the default window's (167,000).
    const s = await suite.serve(
      withSummarizer([
        toolCallsReply([{ name: 'Read', arguments: { file_path: 'notes.txt' } }], { usage: { promptTokens: 70_000, completionTokens: 20 } }),
        textReply('The port is 4711.', { usage: { promptTokens: 900, completionTokens: 5 } }),
      ]),
    );

    const out = await run(s, '--context-window', '100000');

    expect(parseJsonResult(out)).toMatchObject({ is_error: false, result: 'The port is 4711.' });
    expectAutoCompaction();
    const summaryAt = s.requests.findIndex(isSummaryRequest);
    expect(summaryAt).toBe(1);
    expect(messagesText(s.requests[0])).toContain('OLD-PROMPT-MARKER');
    const next = s.requests[summaryAt + 1];
    expect(messagesText(next)).toContain('The user asked to read notes.txt; it says the port is 4711.');
    expect(messagesText(next)).not.toContain('OLD-PROMPT-MARKER');
  });

  it('with no window configured the default applies (200,000 for an unknown model): a reported prompt of 975,000 tokens compacts', async () => {
    await recordCompaction();
    const s = await suite.serve(
      withSummarizer([
        toolCallsReply([{ name: 'Read', arguments: { file_path: 'notes.txt' } }], { usage: { promptTokens: 975_000, completionTokens: 20 } }),
        textReply('The port is 4711.'),
      ]),
    );

    const out = await run(s);

    expect(parseJsonResult(out)).toMatchObject({ is_error: false, result: 'The port is 4711.' });
    expectAutoCompaction();
    expect(messagesText(s.requests[2])).not.toContain('OLD-PROMPT-MARKER');
  });

  it('a context-length refusal from the server compacts the conversation and sends the call again, which succeeds', async () => {
    await recordCompaction();
    const s = await suite.serve(
      withSummarizer([
        toolCallsReply([{ name: 'Read', arguments: { file_path: 'notes.txt' } }], { usage: { promptTokens: 900, completionTokens: 20 } }),
        errorReply(400, {
          message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.",
          type: 'invalid_request_error',
          code: 'context_length_exceeded',
        }),
        textReply('The port is 4711.'),
      ]),
    );

    const out = await run(s);

    expect(parseJsonResult(out)).toMatchObject({ is_error: false, result: 'The port is 4711.' });
    expectAutoCompaction();
    // Request 1 was refused; 2 is the summary; 3 is the same call again, compacted.
    expect(s.requests).toHaveLength(4);
    expect(isSummaryRequest(s.requests[2] as RecordedRequest)).toBe(true);
    expect(messagesText(s.requests[1])).toContain('OLD-PROMPT-MARKER');
    expect(messagesText(s.requests[3])).toContain('The user asked to read notes.txt; it says the port is 4711.');
    expect(messagesText(s.requests[3])).not.toContain('OLD-PROMPT-MARKER');
  });
});
