/** The message that stands for the summarized part of a compacted conversation (also rebuilt on resume). */
export function compactionNote(summary: string): string {
  return `<system-reminder>\nThis session was compacted. Summary of the earlier conversation:\n${summary}\n</system-reminder>`;
}
