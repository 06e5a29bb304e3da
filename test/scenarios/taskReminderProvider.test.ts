import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TASK_REMINDER_TEXT } from '../../src/agent/taskReminderProvider';
import type { ProviderRuntime } from '../support/builtinProviderRuntime';
import { requestText, startProviderRuntime } from '../support/builtinProviderRuntime';
import type { CliWorkspace } from '../support/cliHarness';
import { makeCliWorkspace } from '../support/cliHarness';
import type { ScriptedReply } from '../support/openAiTestServer';
import { textReply, toolCallsReply } from '../support/openAiTestServer';

// Reminders of open tasks as the built-in provider "built-in task reminders", on the real runtime
// with the local OpenAI-compatible server as the model: as Claude Code, after 10 model turns
// without TaskCreate/TaskUpdate (and 10 since the last reminder) the next call gets a
// <system-reminder> nudging to the task tools, listing the tasks; switched off, it never comes;
// replaced by a BeforeStep hook of one's own.

let w: CliWorkspace;
let r: ProviderRuntime | undefined;
beforeEach(async () => {
  w = await makeCliWorkspace();
  await w.write('notes.txt', 'hello');
});
afterEach(async () => {
  await r?.close();
  r = undefined;
  await w.cleanup();
});

const signal = (): AbortSignal => new AbortController().signal;
const reminderHead = JSON.stringify(TASK_REMINDER_TEXT.split('.')[0]).slice(1, -1);
const CREATE = toolCallsReply([{ name: 'TaskCreate', arguments: { subject: 'Write the tests', description: 'for the parser' } }]);
const READ = (): ScriptedReply => toolCallsReply([{ name: 'Read', arguments: { file_path: path.join(w.ws, 'notes.txt') } }]);

/** TaskCreate, then ten Reads, then an answer: twelve model calls. */
const script = (): ScriptedReply[] => [CREATE, ...Array.from({ length: 10 }, READ), textReply('done')];

describe('reminders of open tasks are the built-in provider "built-in task reminders"', () => {
  it('on by default: the 10th model turn after TaskCreate is followed by the reminder listing the tasks, once', async () => {
    r = await startProviderRuntime(w, script());
    await r.session.submit('work on the parser', signal());
    const requests = r.server.requests;
    expect(requests).toHaveLength(12);
    const withReminder = requests.map((q, i) => (requestText(q).includes(reminderHead) ? i : -1)).filter((i) => i >= 0);
    expect(withReminder).toEqual([11]);
    expect(requestText(requests[11])).toContain('Here are the existing tasks:\\n\\n#1. [pending] Write the tests');
    expect(requestText(requests[11]).split(reminderHead)).toHaveLength(2);
    expect(r.runs.find((x) => x.hookId === 'builtin.taskReminders' && x.outcome?.messagesToInject)).toMatchObject({
      event: 'BeforeStep',
      source: { kind: 'code', label: 'built-in task reminders' },
    });
  });

  it('switched off (hookwise.hooks.disabled: "built-in task reminders"): no reminder in any call', async () => {
    r = await startProviderRuntime(w, script(), { disabled: ['built-in task reminders'] });
    await r.session.submit('work on the parser', signal());
    expect(r.server.requests).toHaveLength(12);
    expect(r.server.requests.some((q) => requestText(q).includes(reminderHead))).toBe(false);
    expect(r.runtime.builtins.off).toEqual(['built-in task reminders']);
  });

  it('replaced: with the built-in off, a provider of one’s own reminds on its own terms', async () => {
    r = await startProviderRuntime(w, [READ(), textReply('done')], { disabled: ['built-in task reminders'] });
    r.runtime.hooks.use({
      name: 'my reminders',
      registerHooks(h) {
        h.onBeforeStep((ctx) =>
          (ctx.step_index ?? 0) > 1 ? { messagesToInject: [{ role: 'user', content: 'MY REMINDER: keep the plan current' }] } : undefined,
        );
      },
    });
    await r.session.submit('work on the parser', signal());
    expect(requestText(r.server.requests[0])).not.toContain('MY REMINDER');
    expect(requestText(r.server.requests[1])).toContain('MY REMINDER: keep the plan current');
  });
});
