/**
 * Cuts `text` to at most about `max` characters by removing its middle — the start shows
 * what ran, the end usually holds the error or the summary — and marks the cut inline.
 * Returns the text and how many characters were removed (0 when it fit).
 */
export function truncateMiddle(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const head = Math.ceil(max / 2);
  const tail = Math.floor(max / 2);
  const cut = text.length - head - tail;
  return { text: `${text.slice(0, head)}\n… [${cut} characters truncated] …\n${text.slice(text.length - tail)}`, cut };
}
