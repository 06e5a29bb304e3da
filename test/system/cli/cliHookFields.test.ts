import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { hookCommand, parseJsonResult } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();

function run(s: OpenAiTestServer, prompt: string, ...extra: string[]): Promise<CliRun> {
  return suite.runPrompt(s, prompt, 6, ...extra);
}

/** A node one-liner as a hook command: `node -e <js>`, with the hook's stdin JSON in `input`. */
function nodeHook(js: string): string {
  const script = `const input = JSON.parse(require('fs').readFileSync(0, 'utf8')); ${js}`;
  return `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`;
}

const bash = (command: string, id?: string) => ({ ...(id ? { id } : {}), name: 'Bash', arguments: { command } });
const allText = (s: OpenAiTestServer, n: number): string => JSON.stringify(s.requests[n]?.body.messages ?? []);

describe('handler fields: if, args, shell, statusMessage, once', () => {
  it('if: the hook runs only for tool calls its permission rule matches', async () => {
    await suite.w.settings({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('record-input.cjs', 'seen.jsonl'), if: 'Bash(echo one:*)' }] }],
        PostToolUse: [{ hooks: [{ type: 'command', command: hookCommand('record-input.cjs', 'writes.jsonl'), if: 'Edit(src/**)' }] }],
      },
      permissions: { allow: ['Bash', 'Write'] },
    });
    const s = await suite.serve([
      toolCallsReply([bash('echo one'), bash('echo two'), bash('ls && echo one more')]),
      toolCallsReply([
        { name: 'Write', arguments: { file_path: 'src/a.txt', content: 'a' } },
        { name: 'Write', arguments: { file_path: 'docs/b.txt', content: 'b' } },
      ]),
      textReply('done'),
    ]);

    const out = await run(s, 'go');

    expect(out.code).toBe(0);
    // Like a deny rule, the condition matches any simple command of a compound one.
    expect(suite.w.jsonLines('seen.jsonl').map((i) => (i.tool_input as { command: string }).command)).toEqual(['echo one', 'ls && echo one more']);
    expect(suite.w.jsonLines('writes.jsonl').map((i) => (i.tool_input as { file_path: string }).file_path)).toEqual([expect.stringMatching(/src[/\\]a\.txt$/)]);
  });

  it('if on a non-tool event: a warning naming the file and place, and the hook never runs', async () => {
    await suite.w.settings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo ran > stop-ran.txt', if: 'Bash(ls:*)' }] }] } });
    const s = await suite.serve([textReply('done')]);

    const out = await run(s, 'go');

    expect(out.stderr).toMatch(/\.claude\/settings\.json:\d+:\d+ warning hooks\.Stop\[0\]\.hooks\[0\]\.if: "if" only applies to tool events/);
    expect(suite.w.exists('stop-ran.txt')).toBe(false);
  });

  it('exec-form args: no shell, each argument one word, ${CLAUDE_PROJECT_DIR} and $CLAUDE_PROJECT_DIR filled in', async () => {
    await suite.w.write('.claude/hooks/argv.cjs', "require('fs').writeFileSync(process.argv[2], JSON.stringify(process.argv.slice(3)));");
    await suite.w.settings({
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: 'command',
                command: process.execPath,
                args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/argv.cjs', '$CLAUDE_PROJECT_DIR/argv.json', 'two words', '$HOME', '; touch pwned'],
              },
            ],
          },
        ],
      },
    });
    const s = await suite.serve([textReply('done')]);

    await run(s, 'hi');

    expect(JSON.parse(suite.w.read('argv.json'))).toEqual(['two words', '$HOME', '; touch pwned']);
    expect(suite.w.exists('pwned')).toBe(false);
  });

  it('shell: "bash" runs the command with bash (bash-only syntax works); the default shell is sh', async () => {
    const bashOnly = '[[ "a" == "a" ]] && echo yes > with-bash.txt';
    await suite.w.settings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: bashOnly, shell: 'bash' }] }] } });
    const s = await suite.serve([textReply('done')]);
    await run(s, 'hi');
    expect(suite.w.read('with-bash.txt').trim()).toBe('yes');
  });

  it('statusMessage is carried on the hook run record', async () => {
    await suite.w.settings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true', statusMessage: 'Checking the prompt…' }] }] } });
    const s = await suite.serve([textReply('done')]);
    const json = parseJsonResult(await run(s, 'hi'));
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'UserPromptSubmit', status_message: 'Checking the prompt…' }));
  });

  it('once in a settings file is ignored with a warning: the hook runs every time', async () => {
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('record-input.cjs', 'seen.jsonl'), once: true }] }] },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([bash('echo 1')]), toolCallsReply([bash('echo 2')]), textReply('done')]);
    const out = await run(s, 'go');
    expect(out.stderr).toMatch(/warning hooks\.PreToolUse\[0\]\.hooks\[0\]\.once: "once" is honoured only in agent files/);
    expect(suite.w.jsonLines('seen.jsonl')).toHaveLength(2);
  });
});

describe('outputs', () => {
  it('JSON is read on every exit code: exit 1 with a valid deny blocks; exit 2 with invalid JSON still blocks', async () => {
    await suite.w.write('a.txt', 'keep');
    await suite.w.write('b.txt', 'keep');
    const denyExit1 = nodeHook(
      `if (input.tool_input.command.includes('a.txt')) { process.stdout.write(JSON.stringify({ decision: 'block', reason: 'a.txt is protected' })); process.exit(1); }`,
    );
    const invalidExit2 = nodeHook(
      `if (input.tool_input.command.includes('b.txt')) { process.stdout.write('{not json'); process.stderr.write('b.txt is protected'); process.exit(2); }`,
    );
    await suite.w.settings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: denyExit1 },
              { type: 'command', command: invalidExit2 },
            ],
          },
        ],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([bash('rm a.txt'), bash('rm b.txt')]), textReply('ok')]);

    await run(s, 'clean');

    expect(suite.w.read('a.txt')).toBe('keep');
    expect(suite.w.read('b.txt')).toBe('keep');
    expect(allText(s, 1)).toContain('a.txt is protected');
    expect(allText(s, 1)).toContain('b.txt is protected');
  });

  it('{"continue_execution": false} (an alternate spelling) stops the agent with stop_reason', async () => {
    await suite.w.settings({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: `echo '{"continue_execution": false, "stop_reason": "Dangerous command blocked"}'` }] },
        ],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([bash('echo ran > ran.txt')]), textReply('should not be asked')]);

    const json = parseJsonResult(await run(s, 'go'));

    expect(suite.w.exists('ran.txt')).toBe(false);
    expect(s.requests).toHaveLength(1);
    expect(json.status).toBe('stopped');
    expect(JSON.stringify(json)).toContain('Dangerous command blocked');
  });

  it("unknown fields in a hook's JSON output are warnings on its run (the rest of the output applies)", async () => {
    await suite.w.settings({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo '{"contineu": false, "systemMessage": "hello"}'` }] }] },
    });
    const s = await suite.serve([textReply('done')]);
    const json = parseJsonResult(await run(s, 'hi'));
    expect(json.status).toBe('completed');
    expect(json.hook_runs).toContainEqual(
      expect.objectContaining({ event: 'UserPromptSubmit', status: 'ok', warnings: [expect.stringContaining('unknown field "contineu"')] }),
    );
    expect(JSON.stringify(json.hook_runs)).toContain('did you mean \\"continue\\"');
  });

  it('PostToolUse updatedToolOutput replaces what the model sees (a built-in tool, not MCP); PreToolUse additionalContext reaches the model', async () => {
    await suite.w.settings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"pre-context-42"}}'` }],
          },
        ],
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"[redacted by hook]"}}'` }],
          },
        ],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([bash('echo secret-value', 'call_1')]), textReply('done')]);

    await run(s, 'go');

    const messages = s.requests[1]?.body.messages ?? [];
    const tool = messages.find((m) => m.role === 'tool');
    expect(String(tool?.content)).toContain('[redacted by hook]');
    expect(allText(s, 1)).not.toContain('secret-value\\n');
    expect(allText(s, 1)).toContain('pre-context-42');
  });

  it('Stop additionalContext continues the turn with that context (no block needed)', async () => {
    const once = nodeHook(
      `if (!input.stop_hook_active) process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'also update the changelog' } }));`,
    );
    await suite.w.settings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: once }] }] } });
    const s = await suite.serve([textReply('All done.'), textReply('Changelog updated too.')]);

    const json = parseJsonResult(await run(s, 'fix it'));

    expect(s.requests).toHaveLength(2);
    expect(allText(s, 1)).toContain('also update the changelog');
    expect(json).toMatchObject({ status: 'completed', result: 'Changelog updated too.' });
  });
});

describe('the alternate config spellings', () => {
  it('camelCase / snake_case / older event names, a named map, a plain string and a string array as handlers, timeout_secs', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({
      hooks: {
        preToolUse: {
          'security-check': { command: hookCommand('deny-rm.cjs'), timeout_secs: 30, matcher: 'Bash' },
        },
        post_tool_use: { 'audit-log': 'echo post >> audit.txt' },
        UserInput: ['echo user-input >> audit.txt'],
        BeforeToolUse: [{ matcher: 'Bash', hooks: 'echo before >> audit.txt' }],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([bash('rm keep.txt')]), toolCallsReply([bash('echo fine')]), textReply('ok')]);

    const out = await run(s, 'clean up');

    expect(out.stderr).not.toMatch(/error|warning/);
    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(suite.w.read('audit.txt').split('\n').filter(Boolean)).toEqual(['user-input', 'before', 'before', 'post']);
  });

  it('an unknown event name is a warning naming the file and place; the rest of the file loads', async () => {
    await suite.w.settings({
      hooks: {
        PreToolUze: [{ hooks: [{ type: 'command', command: 'echo typo >> ran.txt' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo good >> ran.txt' }] }],
      },
    });
    const s = await suite.serve([textReply('done')]);
    const out = await run(s, 'hi');
    expect(out.stderr).toMatch(/\.claude\/settings\.json:\d+:\d+ warning hooks\.PreToolUze: unknown event "PreToolUze" — did you mean "PreToolUse"\?/);
    expect(suite.w.read('ran.txt').trim()).toBe('good');
  });
});
