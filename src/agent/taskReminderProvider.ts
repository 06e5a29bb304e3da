import { BUILTIN_PROVIDERS } from '../hooks/config/builtinSwitches';
import type { HookProvider } from '../hooks/hooksApi';
import type { SessionDirectory } from './sessionDirectory';
import type { Task } from './tools/taskStore';

/** What the reminder needs of a session: its task list, when it has the Task tools. */
export interface TaskListSession {
  readonly id: string;
  /** The session's tasks; undefined when it has no Task tools (then no reminder). */
  readonly taskList: (() => readonly Task[]) | undefined;
}

/** Name (and switch id in `hookwise.hooks.disabled`) of the built-in task reminder provider. */
export const BUILTIN_TASK_REMINDERS = BUILTIN_PROVIDERS.taskReminders;

/** Claude Code's thresholds: model turns since the last TaskCreate/TaskUpdate, and since the last reminder. */
export const TURNS_SINCE_TASK_WRITE = 10;
export const TURNS_BETWEEN_TASK_REMINDERS = 10;

/** Claude Code's reminder text. */
export const TASK_REMINDER_TEXT =
  "The task tools haven't been used recently. If you're working on tasks that would benefit from tracking progress, consider using TaskCreate to add new tasks and TaskUpdate to update task status (set to in_progress when starting, completed when done). Also consider cleaning up the task list if it has become stale. Only use these if relevant to the current work. This is just a gentle reminder - ignore if not applicable. Make sure that you NEVER mention this reminder to the user\n";

/** Between the limits (1000) and the compaction (-1000): a limit that ends the run first saves the reminder. */
const TASK_REMINDER_PRIORITY = -900;

/** One session's counts, in model turns (steps) of the main agent. */
interface Counts {
  sinceWrite: number;
  sinceReminder: number;
  /** A step began and has not been counted yet (it is counted at the next step's start). */
  stepOpen: boolean;
  /** The open step called TaskCreate or TaskUpdate. */
  wroteInStep: boolean;
}

/** The reminder's body: Claude Code's text, then the existing tasks (`#id. [status] subject`). */
export function taskReminderText(tasks: readonly Task[]): string {
  if (tasks.length === 0) return TASK_REMINDER_TEXT;
  return `${TASK_REMINDER_TEXT}\n\nHere are the existing tasks:\n\n${tasks.map((t) => `#${t.id}. [${t.status}] ${t.subject}`).join('\n')}`;
}

/**
 * Reminders of open tasks as a hook provider, as Claude Code sends them: when the main agent has
 * the Task tools and neither TaskCreate nor TaskUpdate was called in the last
 * {@link TURNS_SINCE_TASK_WRITE} model turns, nor a reminder sent in the last
 * {@link TURNS_BETWEEN_TASK_REMINDERS}, a `<system-reminder>` nudging it to use them (with the
 * existing tasks) goes with the next model call. A BeforeStep hook counts the turns and injects
 * it; a PostToolUse/PostToolUseFailure hook on the two tools notes a write. Counting starts with
 * the session (a resumed one counts from its resume). Switched off by `built-in task reminders`
 * in `hookwise.hooks.disabled`; replaced by a BeforeStep hook of one's own that injects a message.
 */
export function taskReminderProvider(sessions: Pick<SessionDirectory<TaskListSession>, 'get'>): HookProvider {
  const counts = new Map<string, Counts>();
  const of = (sessionId: string): Counts => {
    let c = counts.get(sessionId);
    if (c === undefined) counts.set(sessionId, (c = { sinceWrite: 0, sinceReminder: 0, stepOpen: false, wroteInStep: false }));
    return c;
  };
  return {
    name: BUILTIN_TASK_REMINDERS,
    registerHooks(hooks) {
      const scope = { agentType: 'main', runsAfterDecision: true } as const;
      hooks.onBeforeStep(
        (ctx) => {
          const c = of(ctx.session_id);
          if (c.stepOpen) {
            c.sinceWrite = c.wroteInStep ? 0 : c.sinceWrite + 1;
            c.sinceReminder++;
          }
          c.stepOpen = true;
          c.wroteInStep = false;
          const tasks = sessions.get(ctx.session_id)?.taskList;
          if (tasks === undefined || c.sinceWrite < TURNS_SINCE_TASK_WRITE || c.sinceReminder < TURNS_BETWEEN_TASK_REMINDERS) return undefined;
          c.sinceReminder = 0;
          return { messagesToInject: [{ role: 'user', content: `<system-reminder>\n${taskReminderText(tasks())}\n</system-reminder>` }] };
        },
        { id: 'builtin.taskReminders', label: 'built-in: task reminders', priority: TASK_REMINDER_PRIORITY, agentType: 'main' },
      );
      const wrote = (ctx: { readonly session_id: string }): undefined => {
        of(ctx.session_id).wroteInStep = true;
        return undefined;
      };
      const options = { ...scope, matcher: 'TaskCreate|TaskUpdate', priority: TASK_REMINDER_PRIORITY, label: 'built-in: task reminders' };
      hooks.onPostToolUse(wrote, { ...options, id: 'builtin.taskReminders.write' });
      hooks.onPostToolUseFailure(wrote, { ...options, id: 'builtin.taskReminders.writeFailed' });
      hooks.onSessionEnd((ctx) => void counts.delete(ctx.session_id), { id: 'builtin.taskReminders.end', label: 'built-in: task reminders' });
    },
  };
}
