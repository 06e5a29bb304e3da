import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { survivors } from '../../support/processProbe';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();
const SERVER = path.resolve(__dirname, '../../fixtures/mcp/server.mjs');

function run(s: OpenAiTestServer, ...extra: string[]): Promise<CliRun> {
  return runCliProcess(suite.cli, suite.w, [
    '-p',
    'use the tool',
    '--model',
    'test-model',
    '--base-url',
    s.url,
    '--output-format',
    'json',
    '--max-steps',
    '6',
    ...extra,
  ]);
}

/** A `.mcp.json` exactly as a Claude Code user has it, running the fixture server. */
async function mcpJson(env: Record<string, string> = {}, name = 'fixture'): Promise<void> {
  await suite.w.write(
    '.mcp.json',
    JSON.stringify({
      mcpServers: { [name]: { command: process.execPath, args: [SERVER], env: { MCP_FIXTURE_LOG: path.join(suite.w.base, 'mcp.log'), ...env } } },
    }),
  );
}

function mcpLog(): Record<string, unknown>[] {
  return suite.w.jsonLines('../mcp.log');
}

/** The tool message the model got back for the call (request n). */
function toolResult(s: OpenAiTestServer, n = 1): string {
  const messages = s.requests[n]?.body.messages ?? [];
  return String(messages.filter((m) => m.role === 'tool').at(-1)?.content);
}

const echo = (text = 'hi', id = 'call_echo') => toolCallsReply([{ id, name: 'mcp__fixture__echo', arguments: { text } }]);

describe('hookwise -p with the MCP servers of .mcp.json', () => {
  it('offers the server tools to the model and runs a call an allow rule permits', async () => {
    await mcpJson();
    await suite.w.settings({ permissions: { allow: ['mcp__fixture'] } });
    const s = await serve([echo(), textReply('done')]);

    const out = await run(s);

    expect(out.code).toBe(0);
    const offered = (s.requests[0]?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(offered).toEqual(expect.arrayContaining(['Read', 'mcp__fixture__echo', 'mcp__fixture__name_with_spaces_']));
    expect(offered).not.toContain('mcp__fixture__broken');
    expect(toolResult(s)).toBe('echo: hi');
    expect(out.stderr).toContain('MCP tool "broken" of server "fixture" is off');
  });

  it('asks by default: headless with nobody to ask, the call is denied and the server never sees it', async () => {
    await mcpJson();
    const s = await serve([echo(), textReply('ok')]);

    const out = await run(s, '--permission-prompt', 'none');

    expect(out.code).toBe(0);
    expect(toolResult(s)).toMatch(/mcp__fixture__echo was not run|denied/);
    expect(mcpLog().filter((e) => e.event === 'call')).toEqual([]);
  });

  it('a PreToolUse hook with matcher mcp__fixture__.* gets tool_name and tool_input, and its deny wins', async () => {
    await mcpJson();
    const record = path.join(suite.w.base, 'pre.jsonl');
    const deny = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no MCP today' } });
    await suite.w.settings({
      permissions: { allow: ['mcp__fixture__*'] },
      hooks: { PreToolUse: [{ matcher: 'mcp__fixture__.*', hooks: [{ type: 'command', command: hookCommand('reply.cjs', deny, record) }] }] },
    });
    const s = await serve([echo('secret'), textReply('ok')]);

    const out = await run(s);

    expect(out.code).toBe(0);
    expect(toolResult(s)).toContain('no MCP today');
    expect(suite.w.jsonLines('../pre.jsonl')).toEqual([
      expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'mcp__fixture__echo', tool_input: { text: 'secret' } }),
    ]);
    expect(mcpLog().filter((e) => e.event === 'call')).toEqual([]);
  });

  it('a PreToolUse hook rewrites the arguments (updatedInput) and PostToolUse replaces the output (updatedMCPToolOutput)', async () => {
    await mcpJson();
    const rewrite = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { text: 'rewritten' } } });
    const post = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: 'redacted by policy' } });
    const record = path.join(suite.w.base, 'post.jsonl');
    await suite.w.settings({
      hooks: {
        PreToolUse: [{ matcher: 'mcp__fixture__echo', hooks: [{ type: 'command', command: hookCommand('reply.cjs', rewrite) }] }],
        PostToolUse: [{ matcher: 'mcp__.*', hooks: [{ type: 'command', command: hookCommand('reply.cjs', post, record) }] }],
      },
    });
    const s = await serve([echo('original'), textReply('ok')]);

    await run(s);

    expect(mcpLog()).toContainEqual(expect.objectContaining({ event: 'call', tool: 'echo', arguments: { text: 'rewritten' } }));
    expect(toolResult(s)).toBe('redacted by policy');
    expect(suite.w.jsonLines('../post.jsonl')).toEqual([
      expect.objectContaining({
        tool_name: 'mcp__fixture__echo',
        tool_input: { text: 'rewritten' },
        tool_response: [{ type: 'text', text: 'echo: rewritten' }],
      }),
    ]);
  });

  it('a deny rule for one tool beats an allow rule for the server', async () => {
    await mcpJson();
    await suite.w.settings({ permissions: { allow: ['mcp__fixture__*'], deny: ['mcp__fixture__echo'] } });
    const s = await serve([
      toolCallsReply([
        { name: 'mcp__fixture__echo', arguments: { text: 'a' } },
        { name: 'mcp__fixture__peek', arguments: {} },
      ]),
      textReply('ok'),
    ]);

    await run(s);

    const results = (s.requests[1]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results[0]).toContain('denied by permission rule mcp__fixture__echo');
    expect(results[1]).toBe('hello from peek');
  });

  it('--mcp-config with a JSON string and --strict-mcp-config: only those servers, .mcp.json ignored', async () => {
    await mcpJson({}, 'project');
    const flag = JSON.stringify({ mcpServers: { other: { command: process.execPath, args: [SERVER] } } });
    const s = await serve([textReply('ok')]);

    const out = await run(s, '--mcp-config', flag, '--strict-mcp-config');

    expect(out.code).toBe(0);
    const offered = (s.requests[0]?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(offered).toContain('mcp__other__echo');
    expect(offered.some((n) => n.startsWith('mcp__project__'))).toBe(false);
  });

  it('a crashed server restarts on the next call, and no server process outlives the CLI', async () => {
    await mcpJson({ MCP_FIXTURE_CHILD: '1' });
    await suite.w.settings({ permissions: { allow: ['mcp__fixture'] } });
    const s = await serve([toolCallsReply([{ name: 'mcp__fixture__crash', arguments: {} }]), echo('after'), textReply('ok')]);

    const out = await run(s);

    expect(out.code).toBe(0);
    expect(toolResult(s, 2)).toBe('echo: after');
    const pids = mcpLog()
      .flatMap((e) => [e.pid, e.childPid])
      .filter((p): p is number => typeof p === 'number');
    expect(
      new Set(
        mcpLog()
          .filter((e) => e.event === 'start')
          .map((e) => e.pid),
      ).size,
    ).toBe(2);
    expect(await survivors([...new Set(pids)])).toEqual([]);
  });

  it('headless, a server elicitation is declined and the tool goes on with that answer', async () => {
    await mcpJson();
    await suite.w.settings({ permissions: { allow: ['mcp__fixture'] } });
    const s = await serve([toolCallsReply([{ name: 'mcp__fixture__ask_user', arguments: {} }]), textReply('ok')]);

    await run(s);

    expect(toolResult(s)).toBe('elicitation decline');
    expect(mcpLog()).toContainEqual(expect.objectContaining({ event: 'elicited', answer: { action: 'decline' } }));
  });

  it('an Elicitation hook answers for the user (Claude Code input fields); ElicitationResult sees the answer', async () => {
    await mcpJson();
    const answer = `cat > "$CLAUDE_PROJECT_DIR/elicitation.json"; echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"Ada"}}}'`;
    await suite.w.settings({
      permissions: { allow: ['mcp__fixture'] },
      hooks: {
        Elicitation: [{ matcher: 'fixture', hooks: [{ type: 'command', command: answer }] }],
        ElicitationResult: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/elicitation-result.json"' }] }],
      },
    });
    const s = await serve([toolCallsReply([{ name: 'mcp__fixture__ask_user', arguments: {} }]), textReply('ok')]);

    await run(s);

    expect(toolResult(s)).toBe('hello Ada');
    expect(JSON.parse(suite.w.read('elicitation.json'))).toMatchObject({
      hook_event_name: 'Elicitation',
      mcp_server_name: 'fixture',
      message: 'What is your name?',
      mode: 'form',
      requested_schema: { properties: { name: { type: 'string' } } },
    });
    expect(JSON.parse(suite.w.read('elicitation-result.json'))).toMatchObject({
      hook_event_name: 'ElicitationResult',
      action: 'accept',
      content: { name: 'Ada' },
    });
  });

  it('an mcp_tool hook (Claude Code 2.1.118) calls a server tool with ${tool_input.…} filled in; its JSON answer decides like a command hook', async () => {
    await mcpJson();
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({
      permissions: { allow: ['Bash'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'fixture', tool: 'policy', input: { command: '${tool_input.command}' } }] }],
      },
    });
    const s = await serve([
      toolCallsReply([
        { id: 'rm', name: 'Bash', arguments: { command: 'rm keep.txt' } },
        { id: 'ls', name: 'Bash', arguments: { command: 'echo fine' } },
      ]),
      textReply('ok'),
    ]);

    const out = await run(s);

    expect(suite.w.read('keep.txt')).toBe('precious');
    const tools = (s.requests[1]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(tools[0]).toContain('policy server: deny rm keep.txt');
    expect(tools[1]).toContain('fine');
    expect(mcpLog().filter((e) => e.event === 'call' && e.tool === 'policy')).toEqual([
      expect.objectContaining({ arguments: { command: 'rm keep.txt' } }),
      expect.objectContaining({ arguments: { command: 'echo fine' } }),
    ]);
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', hook: 'mcp__fixture__policy', decision: 'deny' }));
  });

  it('a subagent gets the MCP tools too, and its call goes through the same hooks', async () => {
    await mcpJson();
    const record = path.join(suite.w.base, 'sub.jsonl');
    await suite.w.settings({
      permissions: { allow: ['mcp__fixture'] },
      hooks: { PreToolUse: [{ matcher: 'mcp__fixture__.*', hooks: [{ type: 'command', command: hookCommand('record-input.cjs', record) }] }] },
    });
    const s = await serve([
      toolCallsReply([{ id: 'call_agent', name: 'Agent', arguments: { description: 'ask', prompt: 'Echo sub.', subagent_type: 'general-purpose' } }]),
      echo('from the subagent', 'call_sub'),
      textReply('sub done'),
      textReply('main done'),
    ]);

    await run(s);

    const subTools = (s.requests[1]?.body.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(subTools).toContain('mcp__fixture__echo');
    expect(toolResult(s, 2)).toBe('echo: from the subagent');
    expect(suite.w.jsonLines('../sub.jsonl')).toEqual([expect.objectContaining({ tool_name: 'mcp__fixture__echo', agent_type: 'general-purpose' })]);
  });

  it('a bad .mcp.json entry is reported with the file and path, and the agent still runs', async () => {
    await suite.w.write(
      '.mcp.json',
      JSON.stringify({
        mcpServers: { web: { type: 'http' }, env: { command: 'x', args: ['${MISSING_VAR_FOR_TEST}'] }, gone: { command: '/nonexistent/mcp-server' } },
      }),
    );
    const s = await serve([textReply('ok')]);

    const out = await run(s);

    expect(out.code).toBe(0);
    expect(out.stderr).toContain('.mcp.json › mcpServers.web.url');
    expect(out.stderr).toContain('MISSING_VAR_FOR_TEST not set');
    expect(out.stderr).toContain('MCP server "gone" (.mcp.json) could not start');
    expect(parseJsonResult(out).result).toBe('ok');
  });
});

function serve(...args: Parameters<typeof suite.serve>): Promise<OpenAiTestServer> {
  return suite.serve(...args);
}
