import { describe, expect, it } from 'vitest';
import { textReply } from '../../support/openAiTestServer';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

// `cat log | hookwise -p "explain"`: the input piped on stdin is part of the prompt, put
// together as Claude Code 2.1.328 does it (recorded against the real binary: the words, a
// newline, then the piped text; the piped text alone when there are no words; a 3 s wait
// for piped input that never starts, with a warning).
const suite = useCliSuite();

/** The text of the last user message of the model's first request. */
function promptSent(s: OpenAiTestServer): string {
  const messages = s.requests[0]?.body.messages ?? [];
  const users = messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1]?.content;
  return typeof last === 'string' ? last : JSON.stringify(last);
}

async function run(s: OpenAiTestServer, words: readonly string[], stdin: string | null, timeoutMs?: number) {
  return runCliProcess(suite.cli, suite.w, ['-p', '--model', 'm', '--base-url', s.url, '--output-format', 'json', ...words], {}, timeoutMs, stdin);
}

describe('hookwise -p with input piped on stdin', () => {
  it('adds the piped text after the words on a new line; the model and UserPromptSubmit hooks see the same prompt', async () => {
    await suite.w.settings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: hookCommand('record-input.cjs', 'prompts.jsonl') }] }] } });
    const s = await suite.serve([textReply('Two lines of log.')]);

    const out = await run(s, ['summarize'], 'line 1\nline 2\n');

    expect(out.code).toBe(0);
    expect(parseJsonResult(out)).toMatchObject({ result: 'Two lines of log.', is_error: false });
    expect(promptSent(s)).toContain('summarize\nline 1\nline 2\n');
    expect(suite.w.jsonLines('prompts.jsonl').map((i) => i.prompt)).toEqual(['summarize\nline 1\nline 2\n']);
  });

  it('the piped text alone is the prompt when there are no words, and the words may follow the options', async () => {
    const s = await suite.serve([textReply('ok'), textReply('ok')]);
    expect((await run(s, [], 'fix the failing test')).code).toBe(0);
    expect(promptSent(s)).toContain('fix the failing test');

    const t = await suite.serve([textReply('ok')]);
    expect((await run(t, ['words', 'after', 'options'], '')).code).toBe(0);
    expect(promptSent(t)).toContain('words after options');
  });

  it('no words and nothing piped, or only whitespace, is a usage error (exit 2) and nothing is sent', async () => {
    const s = await suite.serve([textReply('never')]);
    const none = await run(s, [], '');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('a prompt is required: hookwise -p "prompt", or pipe it on stdin');
    const blank = await run(s, [], '  \n\t\n');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('the prompt is only whitespace');
    expect(s.requests).toHaveLength(0);
  });

  it('a stdin left open with nothing on it: after the wait the run goes on with the words, and says how to skip the wait', async () => {
    const s = await suite.serve([textReply('went on')]);
    const out = await run(s, ['just the words'], null, 20_000);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('no input on stdin within 3 s; going on without it (redirect stdin from /dev/null to skip the wait)');
    expect(parseJsonResult(out)).toMatchObject({ result: 'went on' });
    expect(promptSent(s)).toContain('just the words');
  });

  it('an input over 10 MiB is refused whole (exit 2), nothing is sent', async () => {
    const s = await suite.serve([textReply('never')]);
    const out = await run(s, ['explain'], 'x'.repeat(10 * 1024 * 1024 + 1));
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('the input on stdin is over 10 MiB: nothing was sent');
    expect(s.requests).toHaveLength(0);
  });
});
