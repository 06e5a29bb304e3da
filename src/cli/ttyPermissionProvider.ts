import { closeSync, openSync, writeSync } from 'node:fs';
import type { PermissionAnswer, PermissionProvider, PermissionRequest } from '../hooks/hookRunTypes';
import { PermissionButtons, permissionButtons, permissionDetail, permissionQuestion } from '../presentation/permissionText';
import { SerialQueue } from '../shared/serialQueue';
import { tty } from '../shared/lazyBuiltins';

/** `--permission-prompt`: `auto` asks at the terminal when there is one, `none` never asks, `tty` must ask there. */
export type PermissionPromptMode = 'auto' | 'none' | 'tty';

/** Where the questions go and the answers come from: a terminal in cooked (line) mode. */
export interface PromptTerminal {
  /** Lines typed at the terminal. Paused between questions so nothing is read ahead. */
  readonly input: NodeJS.ReadableStream;
  readonly write: (text: string) => void;
  /** Releases the terminal (a /dev/tty it opened); the process can then exit. */
  close(): void;
}

/** One offered answer: the keys that pick it and the answer it gives. */
interface Choice {
  readonly keys: readonly string[];
  readonly label: string;
  readonly answer: PermissionAnswer;
}

const CANCELLED: PermissionAnswer = { decision: 'deny', decidedBy: 'user', reason: 'cancelled before the user answered' };

/**
 * The headless CLI's PermissionProvider: asks at the terminal what the VS Code modal asks
 * (tool, agent, input summary, reason, the hook that asked) and reads a typed answer —
 * `y` allow once, `s` allow for this session (only for a rule's ask that has a rule to grant),
 * `n` deny. A hook's ask and a protected write offer only allow / deny, as in the modal.
 * Questions are asked one at a time (concurrent asks queue); an unknown answer asks again.
 * The terminal stays in line mode, so Ctrl+C is a real SIGINT: the run's signal aborts and a
 * pending question settles as deny. End of input (Ctrl+D) denies this and every later ask.
 */
export class TtyPermissionProvider implements PermissionProvider {
  private readonly queue = new SerialQueue();
  private closed = false;

  constructor(private readonly terminal: PromptTerminal) {}

  requestPermission(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    return this.queue.run(
      signal,
      () => this.ask(request, signal),
      () => CANCELLED,
    );
  }

  /** Releases the terminal; asks after this are denied. */
  close(): void {
    this.closed = true;
    this.terminal.close();
  }

  private async ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
    if (signal.aborted) return CANCELLED;
    if (this.closed) return { decision: 'deny', decidedBy: 'fallback', reason: 'the terminal was closed; no one to ask' };
    const choices = choicesFor(request);
    const keys = choices.map((c) => c.keys[0]).join('/');
    this.terminal.write(promptText(request, choices));
    for (;;) {
      this.terminal.write(`Answer [${keys}]: `);
      const line = await readLine(this.terminal.input, signal);
      if (line === 'aborted') {
        this.terminal.write('\n(cancelled: denied)\n');
        return CANCELLED;
      }
      if (line === 'ended') {
        this.closed = true;
        this.terminal.write('\n(no more input: denied)\n');
        return { decision: 'deny', decidedBy: 'fallback', reason: 'the terminal closed before an answer' };
      }
      const typed = line.trim().toLowerCase();
      const choice = choices.find((c) => c.keys.includes(typed));
      if (choice) return choice.answer;
      this.terminal.write(`"${printable(line.trim())}" is not an answer here.\n`);
    }
  }
}

/** The answers the modal would offer for `request`, without "Always Allow" (the CLI writes no settings). */
function choicesFor(request: PermissionRequest): Choice[] {
  return permissionButtons(request, false).flatMap((button): Choice[] => {
    switch (button) {
      case PermissionButtons.allow:
        return [{ keys: ['y', 'yes'], label: 'allow once', answer: { decision: 'allow', scope: 'once', decidedBy: 'user' } }];
      // The CLI has no picker: the session choice is the exact rule.
      case PermissionButtons.allowSession:
      case PermissionButtons.allowSessionPick:
        return [
          {
            keys: ['s', 'session'],
            label: `allow ${request.suggestedRule ?? 'it'} for this session`,
            answer: {
              decision: 'allow',
              scope: 'session',
              decidedBy: 'user',
              reason: request.suggestedRule ? `allowed for this session: ${request.suggestedRule}` : 'allowed for this session',
            },
          },
        ];
      case PermissionButtons.deny:
        return [{ keys: ['n', 'no'], label: 'deny', answer: { decision: 'deny', decidedBy: 'user', reason: 'denied by the user' } }];
      default:
        return [];
    }
  });
}

/** The question block: the modal's question and detail (minus its "Always Allow" line), then the choices. */
function promptText(request: PermissionRequest, choices: readonly Choice[]): string {
  // Without the rule, the detail has no "Always Allow adds …" line, which the CLI does not offer.
  const { suggestedRule: _omit, ...withoutRule } = request;
  const detail = permissionDetail(withoutRule);
  const lines = [`\nhookwise: ${permissionQuestion(request)}`, ...(detail ? detail.split('\n').map((l) => (l ? `  ${l}` : '')) : [])];
  lines.push(`  ${choices.map((c) => `[${c.keys[0]}] ${c.label}`).join('   ')}`);
  return `${printable(lines.join('\n'))}\n`;
}

/**
 * The tool input is the model's text: control characters and bidi overrides are shown as
 * escapes, so a command cannot redraw the terminal and pass for a different one.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (ch) =>
    ch === '\t' ? '  ' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Reads one line; `aborted` when `signal` fires first, `ended` at end of input. */
function readLine(input: NodeJS.ReadableStream, signal: AbortSignal): Promise<string | 'aborted' | 'ended'> {
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    let buffered = '';
    const finish = (result: string | 'aborted' | 'ended'): void => {
      input.off('data', onData);
      input.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      // Paused, nothing is read between questions (and the process can exit). What followed
      // the line in this chunk is dropped: an answer must come after the question it answers.
      input.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer | string): void => {
      buffered += chunk.toString();
      const end = buffered.search(/[\r\n]/);
      if (end >= 0) finish(buffered.slice(0, end));
    };
    const onEnd = (): void => finish('ended');
    const onAbort = (): void => finish('aborted');
    input.on('data', onData);
    input.on('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
    input.resume();
  });
}

/**
 * Finds the terminal to ask at. `auto`: stderr must be a terminal, and the answer is read
 * from stdin when it is one, else from /dev/tty (stdin may be a pipe); otherwise undefined
 * (no one to ask: the fallback decides). `tty` also writes to /dev/tty when stderr is
 * redirected, and returns an error message when there is no terminal at all. `none`: undefined.
 */
export function openPromptTerminal(mode: PermissionPromptMode): PromptTerminal | undefined | string {
  if (mode === 'none') return undefined;
  // isatty on the fds, not process.stdin.isTTY: touching process.stdin would open it for nothing.
  const stderrIsTty = tty().isatty(2);
  if (mode === 'auto' && !stderrIsTty) return undefined;
  const toStderr = (text: string): void => void process.stderr.write(text);
  if (tty().isatty(0) && stderrIsTty) return { input: process.stdin, write: toStderr, close: () => process.stdin.pause() };
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    return mode === 'tty'
      ? '--permission-prompt tty: there is no terminal to ask at (stdin and stderr are not terminals and /dev/tty cannot be opened)'
      : undefined;
  }
  if (!tty().isatty(fd)) {
    closeSync(fd);
    return mode === 'tty' ? '--permission-prompt tty: /dev/tty is not a terminal' : undefined;
  }
  const input = new (tty().ReadStream)(fd);
  input.pause();
  const write = stderrIsTty
    ? toStderr
    : (text: string): void => {
        try {
          writeSync(fd, text);
        } catch {
          // The terminal went away: the read side ends too, and the ask is denied.
        }
      };
  return { input, write, close: () => input.destroy() };
}
