import { replayEvents } from '../../agent/sessionReplay';
import type { ModelMessage } from '../../model/modelClient';
import type { ChatEvent } from '../../shared/webviewProtocol';
import type { DisplayRecordRead } from '../history/chatDisplayRecord';
import { projectAgentEvent } from './chatEventProjection';

/** What a resumed or reloaded chat is rebuilt from. */
export interface RestoreSource {
  /** The session's conversation, from its transcript. */
  readonly messages: readonly ModelMessage[];
  /** Damaged transcript lines that were skipped. */
  readonly skippedLines: number;
  /** The display record beside the transcript, as read. */
  readonly record: DisplayRecordRead;
}

/** Shown when the record could not be used: the person learns why the chat looks plainer. */
const TRANSCRIPT_ONLY = 'so it is shown from its transcript: hook decisions, subagent work, diffs and attachments are not shown.';

/**
 * The chat of a resumed or reloaded session, as it looked live: the display record's events,
 * then the turns the transcript has beyond it (the session went on where the chat was not
 * recording, or the window closed mid-turn), from the transcript. Without a record (an older
 * session, one the CLI wrote) it is the transcript alone; with a record that cannot be used it
 * is the transcript with a notice saying why. Checkpoint markers are left out: the checkpoint
 * store adds the live ones after a resume.
 */
export function restoredChatEvents(source: RestoreSource): ChatEvent[] {
  const { messages, record } = source;
  let events: ChatEvent[];
  if (record.kind === 'ok' && record.record.transcriptMessages <= messages.length) {
    events = record.record.events.filter((e) => e.type !== 'checkpoint' && e.type !== 'hookStatus');
    if (record.record.truncated) events.unshift(notice('Earlier turns of this long chat were left out of its saved display.'));
    events.push(...transcriptEvents(messages.slice(record.record.transcriptMessages)));
  } else {
    events = transcriptEvents(messages);
    if (record.kind === 'invalid') events.push(notice(`This chat's saved display ${record.reason}, ${TRANSCRIPT_ONLY}`));
    else if (record.kind === 'ok') events.push(notice(`This chat's saved display does not match its transcript, ${TRANSCRIPT_ONLY}`));
  }
  if (source.skippedLines > 0) events.push(notice(`${source.skippedLines} damaged transcript line(s) were skipped (see the Hookwise log).`));
  return events;
}

/** The chat's view of `messages` as the transcript replay draws it. */
function transcriptEvents(messages: readonly ModelMessage[]): ChatEvent[] {
  return replayEvents(messages).flatMap((e): ChatEvent[] => {
    if (e.type === 'userPrompt') return [{ type: 'userPrompt', text: e.text }];
    const projected = projectAgentEvent(e);
    return projected ? [projected] : [];
  });
}

function notice(text: string): ChatEvent {
  return { type: 'systemMessage', agentId: 'main', text, source: 'Hookwise' };
}
