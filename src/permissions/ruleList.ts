/**
 * Splits a list of permission rules written on one line (`--allowedTools`, a command's
 * `allowed-tools`): `Bash(git add:*), Bash(echo a,b) Read` → three rules. Commas and spaces
 * separate rules only outside parentheses, so a rule's own pattern keeps them.
 */
export function splitRuleList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if ((ch === ',' || ch === ' ') && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
