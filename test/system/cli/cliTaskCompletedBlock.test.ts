import path from 'node:path';
import { expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';

// A TaskCompleted hook that exits 2 keeps the task open; as in Claude Code, TaskUpdate still
// gets PostToolUse (not PostToolUseFailure) with `success: false` and the hook's feedback.

const suite = useCliSuite();

it('TaskUpdate blocked by a TaskCompleted hook (exit 2) fires PostToolUse with success false and the hook feedback, which the model sees', async () => {
  const { w } = suite;
  const blocker = hookCommand('record-and-reply.cjs', path.join(w.ws, 'completed.jsonl'), '', '2', 'the tests were not run');
  const recorder = (file: string) => [{ hooks: [{ type: 'command', command: hookCommand('record-input.cjs', path.join(w.ws, file)) }] }];
  await w.settings({
    hooks: {
      TaskCompleted: [{ hooks: [{ type: 'command', command: blocker }] }],
      PostToolUse: recorder('post.jsonl'),
      PostToolUseFailure: recorder('failure.jsonl'),
    },
  });
  const s = await suite.serve([
    toolCallsReply([{ name: 'TaskCreate', arguments: { subject: 'Write docs', description: 'Write the docs', activeForm: 'Writing docs' } }]),
    toolCallsReply([{ id: 'call_update', name: 'TaskUpdate', arguments: { taskId: '1', status: 'completed' } }]),
    textReply('The task could not be completed.'),
  ]);

  const out = await runCliProcess(suite.cli, w, ['-p', 'Track a task and finish it.', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json']);

  expect(parseJsonResult(out)).toMatchObject({ is_error: false });
  const feedback = `TaskCompleted hook feedback:\n[${blocker}]: the tests were not run`;
  const update = w.jsonLines('post.jsonl').find((e) => e.tool_name === 'TaskUpdate');
  expect(update).toMatchObject({
    hook_event_name: 'PostToolUse',
    tool_input: { taskId: '1', status: 'completed' },
    tool_use_id: 'call_update',
    tool_response: { success: false, taskId: '1', updatedFields: [], error: feedback },
  });
  expect(Object.keys(update?.tool_response as object).sort()).toEqual(['error', 'success', 'taskId', 'updatedFields']);
  expect(w.exists('failure.jsonl')).toBe(false);
  expect(s.requests[2]?.body.messages?.at(-1)).toMatchObject({ role: 'tool', content: feedback });
});
