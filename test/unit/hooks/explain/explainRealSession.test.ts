import { describe, expect, it } from 'vitest';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { explainHooks } from '../../../../src/hooks/explain/explainHooks';
import { explainSessionOf } from '../../../../src/hooks/explain/explainSession';
import type { HookRunRecord } from '../../../../src/hooks/hookRunTypes';
import { describeSource } from '../../../../src/configFiles/hookSource';
import { textReply, toolCallsReply } from '../../../support/openAiTestServer';
import { useRuntimeEnv } from '../../agent/runtimeHarness';

// "Why these hooks?" on a real occurrence must agree with what the runner did: a real session
// (real hook processes, the OpenAI test server as the model), then explain each PreToolUse
// occurrence from the records Hook Runs keeps and compare.

const env = useRuntimeEnv();

const DENY_RM = `grep -q '"command":"rm ' && { echo "no rm here" >&2; exit 2; } || exit 0`;

describe('explain a real occurrence', () => {
  it('lists exactly the hooks that ran, and says why the others did not: matcher, skill not loaded, once already ran', async () => {
    const { w } = env;
    await w.settings({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: DENY_RM }] },
          { matcher: 'Write', hooks: [{ type: 'command', command: 'exit 0' }] },
        ],
      },
    });
    await w.write(
      '.claude/skills/deploy/SKILL.md',
      [
        '---',
        'description: Deploys',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        '          once: true',
        '          command: echo deploy-once',
        '---',
        'Deploy.',
      ].join('\n'),
    );
    const records = new Map<string, HookRunRecord>();
    const run = await env.runPrompt({
      trusted: true,
      mode: 'bypassPermissions',
      skills: true,
      setup: (runtime) => {
        runtime.runner.addObserver({
          onHookStarted: (r) => void records.set(r.runId, r),
          onHookFinished: (r) => void records.set(r.runId, r),
        });
      },
      script: [
        toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'ls' } }]),
        toolCallsReply([{ id: 's1', name: 'Skill', arguments: { skill: 'deploy' } }]),
        toolCallsReply([{ id: 'b2', name: 'Bash', arguments: { command: 'rm -f nothing' } }]),
        toolCallsReply([{ id: 'b3', name: 'Bash', arguments: { command: 'ls' } }]),
        textReply('done'),
      ],
    });
    const config = await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] }));
    const all = [...records.values()];
    const bashOccurrences = [...new Set(all.filter((r) => r.event === 'PreToolUse' && r.matchValue === 'Bash').map((r) => r.occurrenceId))];
    expect(bashOccurrences).toHaveLength(3);
    const explained = bashOccurrences.map((occurrenceId) => {
      const first = all.find((r) => r.occurrenceId === occurrenceId) as HookRunRecord;
      const session = explainSessionOf(occurrenceId, all, run.runtime.runner.skillsOf(first.sessionId, first.startedAt));
      const rows = explainHooks(config, { event: 'PreToolUse', input: first.input, cwd: w.ws, trust: { trusted: true }, session });
      // Consistent with the runner: every hook that ran is listed as ran, and nothing is left that "would run".
      expect(rows.filter((r) => r.outcome === 'ran').map((r) => r.source)).toEqual(session.ran.map((r) => describeSource(r.source)));
      expect(rows.filter((r) => r.outcome === 'would run')).toEqual([]);
      return rows.map((r) => [r.command, r.outcome, r.reason]);
    });
    const write = ['exit 0', 'skipped', 'matcher `Write` does not match tool_name `Bash`'];
    expect(explained[0]).toEqual([
      [DENY_RM, 'ran', 'ran: no decision (ok)'],
      write,
      ['echo deploy-once', 'skipped', 'scoped to the deploy skill, which this session has not loaded'],
    ]);
    expect(explained[1]).toEqual([[DENY_RM, 'ran', 'ran: deny — no rm here'], write, ['echo deploy-once', 'ran', 'ran: no decision (ok)']]);
    expect(explained[2]).toEqual([[DENY_RM, 'ran', 'ran: no decision (ok)'], write, ['echo deploy-once', 'skipped', 'once: it already ran in this session']]);
  });
});
