import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookwiseRuntime } from '../../../../src/runtime/hookwiseRuntime';
import { SessionManager } from '../../../../src/runtime/sessionManager';
import { loadAgentDefinitions } from '../../../../src/agent/subagents/agentDefinitions';
import { readAgentFileText } from '../../../../src/hooks/config/agentFileReader';
import type { CliWorkspace } from '../../../support/cliHarness';
import { makeCliWorkspace } from '../../../support/cliHarness';
import { RecordingModel } from '../agentHarness';

let w: CliWorkspace;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await w.cleanup();
});

const projectAgents = () => [{ dir: path.join(w.ws, '.claude', 'agents'), displayDir: '.claude/agents' }];

describe('agent files: one frontmatter rule for their definition and their hooks', () => {
  it('a file saved with a BOM, CRLF and blanks after the --- lines defines the agent and its hooks alike', async () => {
    const text =
      '\uFEFF---  \r\nname: reviewer\r\ndescription: Reviews diffs\r\ntools: Read, Grep\r\nhooks:\r\n  Stop:\r\n    - hooks:\r\n        - type: command\r\n          command: echo done\r\n--- \r\nYou review diffs.\r\n';
    await w.write('.claude/agents/reviewer.md', text);

    const { agents, problems } = await loadAgentDefinitions(projectAgents());
    expect(problems).toEqual([]);
    expect(agents.find((a) => a.name === 'reviewer')).toMatchObject({
      description: 'Reviews diffs',
      tools: ['Read', 'Grep'],
      systemPrompt: 'You review diffs.',
      source: '.claude/agents/reviewer.md',
    });

    const hooks = readAgentFileText(text, { file: path.join(w.ws, '.claude/agents/reviewer.md'), displayFile: '.claude/agents/reviewer.md' });
    expect(hooks.diagnostics).toEqual([]);
    expect(hooks.agentType).toBe('reviewer');
    expect(hooks.hooks).toHaveLength(1);
  });

  it('a --- that does not stand on its own line does not close the frontmatter, for either reader', async () => {
    const text = '---\nname: odd\n---not a closer\nbody\n';
    await w.write('.claude/agents/odd.md', text);
    const { agents, problems } = await loadAgentDefinitions(projectAgents());
    expect(agents.some((a) => a.name === 'odd')).toBe(false);
    expect(problems).toEqual([{ file: '.claude/agents/odd.md', message: expect.stringMatching(/no YAML frontmatter/) }]);
    expect(readAgentFileText(text, { file: '/x/odd.md', displayFile: 'odd.md' }).agentType).toBeUndefined();
  });
});

describe('agent definitions reload', () => {
  it('after an agent file changes and the agents are loaded again, the next session offers the new definition', async () => {
    const transcriptDir = path.join(w.hookwiseHome, 'projects', 'ws');
    const model = new RecordingModel([{ text: 'One.' }, { text: 'Two.' }]);
    const runtime = new HookwiseRuntime({ projectDir: w.ws, homeDir: w.home, model, transcriptDir });
    const manager = new SessionManager({
      runtime,
      projectDir: w.ws,
      homeDir: w.home,
      transcriptDir,
      settings: () => ({ permissionMode: 'default', trusted: true, emit: () => undefined }),
    });
    const agentTool = (n: number) => model.requests[n]?.tools?.find((t) => t.name === 'Agent')?.description ?? '';
    const prompt = async (text: string) => (await manager.ensureStarted(new AbortController().signal)).submit(text, new AbortController().signal);

    await w.write('.claude/agents/helper.md', '---\nname: helper\ndescription: Old helper\n---\nOld.\n');
    expect(await manager.loadAgents()).toEqual([]);
    await prompt('first');
    expect(agentTool(0)).toContain('- helper: Old helper');

    await w.write('.claude/agents/helper.md', '---\nname: helper\ndescription: New helper\n---\nNew.\n');
    await manager.loadAgents();
    await manager.clear();
    await prompt('second');
    expect(agentTool(1)).toContain('- helper: New helper');
    expect(agentTool(1)).not.toContain('Old helper');
    await manager.end('other');
  });

  it('when two loads overlap (two saves in a row), the one started last wins even if the earlier one finishes after it', async () => {
    const runtime = new HookwiseRuntime({
      projectDir: w.ws,
      homeDir: w.home,
      model: new RecordingModel([]),
      transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
    });
    // The earlier load reads a folder of many files (slow), the later one a single file (fast).
    for (let i = 0; i < 200; i++) await w.write(`many/a${String(i).padStart(3, '0')}.md`, `---\nname: stale${i}\ndescription: Stale\n---\n`);
    await w.write('one/fresh.md', '---\nname: fresh\ndescription: Fresh\n---\n');
    const earlier = runtime.loadAgents([{ dir: path.join(w.ws, 'many'), displayDir: 'many' }]);
    const later = runtime.loadAgents([{ dir: path.join(w.ws, 'one'), displayDir: 'one' }]);
    await Promise.all([earlier, later]);
    const names = runtime.agentTypes.map((a) => a.name);
    expect(names).toContain('fresh');
    expect(names).not.toContain('stale0');
  });
});
