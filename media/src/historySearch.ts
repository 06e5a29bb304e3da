import type { HistoryEntry } from '../../src/shared/webviewProtocol';

/* The History panel's dates and search, free of the DOM (historyPanel.ts draws the panel). */

/** When a session was last active, as a short label: "Today 14:05", "Yesterday 09:12", "Mar 3, 2026 17:40". */
export function historyWhen(updatedAt: number, now: number, locale?: string): string {
  const at = new Date(updatedAt);
  const time = at.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const day = (d: Date): number => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(new Date(now)) - day(at)) / 86_400_000);
  if (days === 0) return `Today ${time}`;
  if (days === 1) return `Yesterday ${time}`;
  return `${at.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' })} ${time}`;
}

/** The sessions whose title, detail or date label contain every word of `query` (case-insensitive). */
export function filterSessions<T extends HistoryEntry>(sessions: readonly T[], query: string, when: (s: T) => string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((s) => {
    const text = `${s.title} ${s.detail ?? ''} ${when(s)}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
