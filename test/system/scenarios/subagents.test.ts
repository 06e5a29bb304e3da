import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { parseJsonResult } from '../../support/cliHarness';
import type { Json } from '../../support/lifecycleHarness';
import { isMainAgentRequest, jsonLinesOf, lastUserText, recordTo, systemPromptOf, toolMessagesOf, useLifecycleEnv } from '../../support/lifecycleHarness';

const env = useLifecycleEnv();

const agentCall = (id: string, subagentType: string, prompt: string, description = 'a subtask') => ({
  id,
  name: 'Agent',
  arguments: { description, prompt, subagent_type: subagentType },
});

describe('subagents through hookwise -p (real process, local OpenAI server, command hooks)', () => {
  it("a project PreToolUse hook blocks a subagent's Bash call; its input names the subagent (agent_id, agent_type; hookwise.parent_agent_id)", async () => {
    const { w } = env;
    await w.write('keep.txt', 'precious');
    const pre = path.join(w.ws, 'pre.jsonl');
    const guard = await env.hook(
      'guard',
      `${recordTo(pre)}\nif (/\\brm\\b/.test(input.tool_input.command)) { process.stderr.write('rm is blocked by project policy'); process.exit(2); }`,
    );
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] }, permissions: { allow: ['Bash'] } });
    const s = await env.serve([
      toolCallsReply([agentCall('call_agent', 'general-purpose', 'Delete keep.txt with rm.', 'clean up')]),
      toolCallsReply([{ id: 'call_rm', name: 'Bash', arguments: { command: 'rm keep.txt' } }]),
      textReply('I could not delete keep.txt: the project forbids rm.'),
      textReply('The subagent was not allowed to delete keep.txt.'),
    ]);

    const out = await env.run(s, 'clean up the workspace');
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(w.read('keep.txt')).toBe('precious');
    const [input, ...more] = jsonLinesOf(pre);
    expect(more).toEqual([]);
    expect(input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm keep.txt' },
      session_id: json.session_id,
      agent_type: 'general-purpose',
      hookwise: { parent_agent_id: 'main', agent_type: 'general-purpose' },
    });
    const childId = String(input?.agent_id);
    expect(childId).toMatch(/^agent-/);
    expect(childId).not.toBe('main');
    // Inside a subagent transcript_path is the session's (Claude Code); the child's own file is linked from it.
    expect(String(input?.transcript_path)).toBe(json.transcript_path);
    expect(jsonLinesOf(json.transcript_path)).toContainEqual(
      expect.objectContaining({
        type: 'hookwise',
        subtype: 'subagent',
        subagent_id: childId,
        agent_type: 'general-purpose',
        tool_use_id: 'call_agent',
        transcript_path: path.join(path.dirname(json.transcript_path), json.session_id, 'subagents', `${childId}.jsonl`),
      }),
    );

    // The child (not the main agent) got the reason; the parent got the child's answer.
    expect(s.requests).toHaveLength(4);
    expect(isMainAgentRequest(s.requests[2]!)).toBe(false);
    expect(toolMessagesOf(s.requests[2])).toEqual([{ tool_call_id: 'call_rm', content: expect.stringContaining('rm is blocked by project policy') }]);
    expect(isMainAgentRequest(s.requests[3]!)).toBe(true);
    expect(toolMessagesOf(s.requests[3])).toEqual([{ tool_call_id: 'call_agent', content: 'I could not delete keep.txt: the project forbids rm.' }]);
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', agent_id: childId, decision: 'deny' }));
  });

  it('SubagentStart exits 2: the spawn is refused with the reason, and the child never calls the model', async () => {
    const { w } = env;
    const starts = path.join(w.ws, 'starts.jsonl');
    const refuse = await env.hook('refuse', `${recordTo(starts)}\nprocess.stderr.write('no subagents during the freeze'); process.exit(2);`);
    await w.settings({ hooks: { SubagentStart: [{ hooks: [{ type: 'command', command: refuse }] }] } });
    const s = await env.serve([toolCallsReply([agentCall('call_explore', 'Explore', 'Find the config files.')]), textReply('OK, I will look myself.')]);

    const out = await env.run(s, 'find the config');
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(json.result).toBe('OK, I will look myself.');
    expect(s.requests).toHaveLength(2);
    expect(s.requests.every(isMainAgentRequest)).toBe(true);
    const [result] = toolMessagesOf(s.requests[1]);
    expect(result?.tool_call_id).toBe('call_explore');
    expect(result?.content).toMatch(/not started.*refused/);
    expect(result?.content).toContain('no subagents during the freeze');
    expect(jsonLinesOf(starts)).toEqual([
      expect.objectContaining({ hook_event_name: 'SubagentStart', agent_type: 'Explore', hookwise: expect.objectContaining({ parent_agent_id: 'main' }) }),
    ]);
    // No subagent transcript was ever opened.
    expect(existsSync(path.join(path.dirname(json.transcript_path), json.session_id, 'subagents'))).toBe(false);
  });

  it("an agent file's hooks fire only inside that subagent (not for the main agent's identical call); its Stop is the SubagentStop", async () => {
    const { w } = env;
    const all = path.join(w.ws, 'all.jsonl');
    const scoped = path.join(w.ws, 'scoped.jsonl');
    const stops = path.join(w.ws, 'stops.jsonl');
    const recordAll = await env.hook('record-all', recordTo(all));
    const recordScoped = await env.hook('record-scoped', recordTo(scoped));
    const recordStop = await env.hook('record-stop', recordTo(stops));
    await w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: recordAll }] }] },
      permissions: { allow: ['Bash(echo:*)'] },
    });
    await w.write(
      '.claude/agents/auditor.md',
      [
        '---',
        'name: auditor',
        'description: Audits the workspace',
        'tools: Bash, Read',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        `        - { type: command, command: ${JSON.stringify(recordScoped)} }`,
        '  Stop:',
        '    - hooks:',
        `        - { type: command, command: ${JSON.stringify(recordStop)} }`,
        '---',
        'You audit the workspace.',
        '',
      ].join('\n'),
    );
    const s = await env.serve([
      toolCallsReply([{ id: 'call_main', name: 'Bash', arguments: { command: 'echo audit-me' } }]),
      toolCallsReply([agentCall('call_auditor', 'auditor', 'Run echo audit-me and report.')]),
      toolCallsReply([{ id: 'call_child', name: 'Bash', arguments: { command: 'echo audit-me' } }]),
      textReply('Audited: audit-me'),
      textReply('Done.'),
    ]);

    const out = await env.run(s, 'audit');

    expect(out.code).toBe(0);
    expect(out.stderr).not.toMatch(/ignored|is off/);
    expect(systemPromptOf(s.requests[2]!)).toBe('You audit the workspace.');
    // The project hook saw both calls; the agent file's hook only the subagent's.
    expect(jsonLinesOf(all).map((i) => [i.tool_use_id, !('agent_id' in i)])).toEqual([
      ['call_main', true],
      ['call_child', false],
    ]);
    const scopedInputs = jsonLinesOf(scoped);
    expect(scopedInputs).toEqual([
      expect.objectContaining({ tool_use_id: 'call_child', agent_type: 'auditor', hookwise: expect.objectContaining({ parent_agent_id: 'main' }) }),
    ]);
    expect(jsonLinesOf(stops)).toEqual([
      expect.objectContaining({
        hook_event_name: 'SubagentStop',
        agent_type: 'auditor',
        agent_id: scopedInputs[0]?.agent_id,
        last_assistant_message: 'Audited: audit-me',
      }),
    ]);
  });

  it('a PreToolUse matcher "Task" (the tool\'s old name) matches the Agent tool and can deny the spawn', async () => {
    const { w } = env;
    const deny = await env.hook('deny-task', "process.stderr.write('delegation is off in this repo'); process.exit(2);");
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: deny }] }] } });
    const s = await env.serve([toolCallsReply([agentCall('call_task', 'general-purpose', 'Do it.')]), textReply('Doing it myself.')]);

    const out = await env.run(s, 'delegate');

    expect(out.code).toBe(0);
    expect(s.requests).toHaveLength(2);
    expect(toolMessagesOf(s.requests[1])).toEqual([{ tool_call_id: 'call_task', content: expect.stringContaining('delegation is off in this repo') }]);
  });

  it('SubagentStart stdout reaches the child as context; a SubagentStop block (exit 2) makes the child continue, and the parent gets its final answer', async () => {
    const { w } = env;
    const context = await env.hook('start-context', "process.stdout.write('House rule: answers end with DONE.');");
    const stopOnce = await env.hook('stop-once', "if (!input.stop_hook_active) { process.stderr.write('Say DONE at the end.'); process.exit(2); }");
    await w.settings({
      hooks: { SubagentStart: [{ hooks: [{ type: 'command', command: context }] }], SubagentStop: [{ hooks: [{ type: 'command', command: stopOnce }] }] },
    });
    const s = await env.serve([
      toolCallsReply([agentCall('call_agent', 'Explore', 'Summarize the repo.')]),
      textReply('It is a small repo.'),
      textReply('It is a small repo. DONE'),
      textReply('Summary received.'),
    ]);

    const out = await env.run(s, 'summarize');

    expect(out.code).toBe(0);
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('House rule: answers end with DONE.');
    expect(lastUserText(s.requests[2]!)).toContain('Say DONE at the end.');
    expect(isMainAgentRequest(s.requests[3]!)).toBe(true);
    expect(toolMessagesOf(s.requests[3])).toEqual([{ tool_call_id: 'call_agent', content: 'It is a small repo. DONE' }]);
    // Stop of the main agent is another event: the SubagentStop hook did not hold it back.
    expect(s.requests).toHaveLength(4);
  });

  it('nesting is limited (default 2): a subagent may spawn one, whose own requests no longer offer the Agent tool; Explore never gets it', async () => {
    const s = await env.serve([
      toolCallsReply([agentCall('call_child', 'general-purpose', 'Child task: delegate further.')]),
      toolCallsReply([agentCall('call_grandchild', 'general-purpose', 'Grandchild task.')]),
      textReply('grandchild done'),
      textReply('child done'),
      toolCallsReply([agentCall('call_explore', 'Explore', 'Look around.')]),
      textReply('explored'),
      textReply('all done'),
    ]);

    const out = await env.run(s, 'nest');

    expect(out.code).toBe(0);
    const offersAgent = (n: number): boolean => (s.requests[n]?.body.tools ?? []).some((t) => (t.function as { name?: string } | undefined)?.name === 'Agent');
    expect(lastUserText(s.requests[1]!)).toBe('Child task: delegate further.');
    expect(lastUserText(s.requests[2]!)).toBe('Grandchild task.');
    expect(lastUserText(s.requests[5]!)).toBe('Look around.');
    expect([0, 1, 2, 5].map(offersAgent)).toEqual([true, true, false, false]);
    expect(toolMessagesOf(s.requests[3])).toEqual([{ tool_call_id: 'call_grandchild', content: 'grandchild done' }]);
    expect(toolMessagesOf(s.requests[4])).toEqual([{ tool_call_id: 'call_child', content: 'child done' }]);
  });

  it("transcript_path is the session's, readable by every hook around a subagent: SubagentStart finds the Agent call; SubagentStop reads the child's own at agent_transcript_path", async () => {
    const { w } = env;
    const seen = path.join(w.ws, 'seen.jsonl');
    const reader = await env.hook(
      'read-transcript',
      [
        "const read = (file) => { try { return fs.readFileSync(file, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l)); } catch (e) { return null; } };",
        "const uses = (ls) => (ls || []).filter((l) => l.type === 'assistant').flatMap((l) => l.message.content.filter((b) => b.type === 'tool_use').map((b) => b.id));",
        'const lines = read(input.transcript_path);',
        'const own = input.agent_transcript_path ? read(input.agent_transcript_path) : undefined;',
        `fs.appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ event: input.hook_event_name, agent_id: input.agent_id, readable: lines !== null, tool_uses: uses(lines), ...(own !== undefined ? { own_tool_uses: uses(own) } : {}) }) + '\\n');`,
      ].join('\n'),
    );
    const all = [{ hooks: [{ type: 'command', command: reader }] }];
    await w.settings({ hooks: { SubagentStart: all, PreToolUse: all, SubagentStop: all }, permissions: { allow: ['Bash(echo:*)'] } });
    const s = await env.serve([
      toolCallsReply([agentCall('call_agent', 'general-purpose', 'Run echo hi.')]),
      toolCallsReply([{ id: 'call_echo', name: 'Bash', arguments: { command: 'echo hi' } }]),
      textReply('hi'),
      textReply('done'),
    ]);

    const out = await env.run(s, 'spawn');

    expect(out.code).toBe(0);
    const byEvent = Object.fromEntries(jsonLinesOf(seen).map((l) => [`${String(l.event)}:${l.agent_id === undefined ? 'main' : 'child'}`, l]));
    expect(byEvent['PreToolUse:main']).toMatchObject({ readable: true, tool_uses: ['call_agent'] });
    expect(byEvent['SubagentStart:child']).toMatchObject({ readable: true, tool_uses: expect.arrayContaining(['call_agent']) });
    expect(byEvent['PreToolUse:child']).toMatchObject({ readable: true, tool_uses: ['call_agent'] });
    expect(byEvent['SubagentStop:child']).toMatchObject({ readable: true, tool_uses: ['call_agent'], own_tool_uses: ['call_echo'] });
  });

  it('a SubagentStop hook that always blocks is capped like Stop: the child ends after 8 blocks and the parent goes on', async () => {
    const { w } = env;
    const stops = path.join(w.ws, 'stops.jsonl');
    const never = await env.hook('never-done', `${recordTo(stops)}\nprocess.stderr.write('not done yet'); process.exit(2);`);
    await w.settings({ hooks: { SubagentStop: [{ hooks: [{ type: 'command', command: never }] }] } });
    let childTurns = 0;
    const s = await env.serve((request) => {
      if (!isMainAgentRequest(request)) return textReply(`attempt ${++childTurns}`);
      return toolMessagesOf(request).length === 0
        ? toolCallsReply([agentCall('call_agent', 'general-purpose', 'Try forever.')])
        : textReply('Parent finished.');
    });

    const out = await env.run(s, 'go', ['--max-steps', '20']);
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(json.result).toBe('Parent finished.');
    expect(childTurns).toBe(8);
    expect(jsonLinesOf(stops).map((i) => i.stop_hook_active)).toEqual([false, true, true, true, true, true, true, true]);
    expect(toolMessagesOf(s.requests.at(-1))).toEqual([{ tool_call_id: 'call_agent', content: 'attempt 8' }]);
  });

  it.each(['json', 'stream-json'] as const)(
    'two Agent calls in one step both run concurrently and complete; their hook records carry their own ids (%s output)',
    async (format) => {
      const { w } = env;
      const starts = path.join(w.ws, 'starts.jsonl');
      const stops = path.join(w.ws, 'stops.jsonl');
      await w.settings({
        hooks: {
          SubagentStart: [{ hooks: [{ type: 'command', command: await env.hook('record-start', recordTo(starts)) }] }],
          SubagentStop: [{ hooks: [{ type: 'command', command: await env.hook('record-stop', recordTo(stops)) }] }],
        },
      });
      // Each child answers only once both children have asked: sequential subagents would
      // never get there, and would answer "sequential" after the fallback instead.
      const childRequests: RecordedRequest[] = [];
      let bothArrived: () => void = () => undefined;
      const both = new Promise<void>((resolve) => {
        bothArrived = resolve;
      });
      const s = await env.serve(async (request): Promise<ScriptedReply> => {
        if (isMainAgentRequest(request)) {
          return toolMessagesOf(request).length === 0
            ? toolCallsReply([
                agentCall('call_a', 'general-purpose', 'Task A: count the files.'),
                agentCall('call_b', 'general-purpose', 'Task B: read the README.'),
              ])
            : textReply('Both subagents reported.');
        }
        childRequests.push(request);
        if (childRequests.length === 2) bothArrived();
        const concurrent = await Promise.race([both.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 4000))]);
        const task = lastUserText(request).startsWith('Task A') ? 'A' : 'B';
        return textReply(concurrent ? `report ${task}` : 'sequential');
      });

      const out = await env.run(s, 'do both', [], format);

      expect(out.code).toBe(0);
      expect(childRequests).toHaveLength(2);
      expect(toolMessagesOf(s.requests[3])).toEqual([
        { tool_call_id: 'call_a', content: 'report A' },
        { tool_call_id: 'call_b', content: 'report B' },
      ]);
      // Which child got which task, from the hooks' own inputs (the Agent call's prompt is Hookwise's, under hookwise).
      const startInputs = jsonLinesOf(starts);
      const idOf = (task: string): string => String(startInputs.find((i) => String((i.hookwise as Json).prompt).startsWith(`Task ${task}`))?.agent_id);
      const [idA, idB] = [idOf('A'), idOf('B')];
      expect(idA).toMatch(/^agent-/);
      expect(idB).toMatch(/^agent-/);
      expect(idA).not.toBe(idB);
      expect(startInputs.every((i) => (i.hookwise as Json).parent_agent_id === 'main' && i.agent_type === 'general-purpose')).toBe(true);
      expect(Object.fromEntries(jsonLinesOf(stops).map((i) => [String(i.agent_id), i.last_assistant_message]))).toEqual({
        [idA]: 'report A',
        [idB]: 'report B',
      });

      // The CLI's own hook records (json hook_runs, or stream-json hook_run lines) say the same.
      const runs: Json[] =
        format === 'json'
          ? [...parseJsonResult(out).hook_runs]
          : out.stdout
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as Json)
              .filter((l) => l.type === 'hook_run' && l.phase === 'finished');
      const idsFor = (event: string): string[] =>
        runs
          .filter((r) => r.event === event)
          .map((r) => String(r.agent_id))
          .sort();
      expect(idsFor('SubagentStart')).toEqual([idA, idB].sort());
      expect(idsFor('SubagentStop')).toEqual([idA, idB].sort());
      if (format === 'stream-json') {
        const lines = out.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Json);
        expect(
          lines
            .filter((l) => l.type === 'agent_start' && l.agent_id !== 'main')
            .map((l) => [l.agent_id, l.parent_agent_id, l.agent_type])
            .sort(),
        ).toEqual(
          [
            [idA, 'main', 'general-purpose'],
            [idB, 'main', 'general-purpose'],
          ].sort(),
        );
        expect(
          lines
            .filter((l) => l.type === 'text' && l.agent_id === idA)
            .map((l) => l.delta)
            .join(''),
        ).toBe('report A');
      }
      // Each child has its own transcript file next to the session's.
      const transcriptDir = path.join(w.hookwiseHome, 'projects');
      const subagentFiles = readdirSync(transcriptDir, { recursive: true })
        .map(String)
        .filter((f) => f.includes('subagents') && f.endsWith('.jsonl'));
      expect(subagentFiles.map((f) => path.basename(f)).sort()).toEqual([`${idA}.jsonl`, `${idB}.jsonl`].sort());
    },
  );
});
