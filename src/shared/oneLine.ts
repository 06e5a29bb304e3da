/** `text` on one line (runs of whitespace become one space), at most `max` characters; an ellipsis marks the cut. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
