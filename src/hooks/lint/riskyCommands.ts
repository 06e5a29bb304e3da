/**
 * Commands a hook should almost never run, each with why. A hook runs on every matching event
 * without asking, so a download piped to a shell or a recursive delete of a root is worth a
 * warning even when meant.
 */
const RISKS: readonly { readonly re: RegExp; readonly why: string }[] = [
  {
    re: /\b(?:curl|wget)\b[^|;&]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b/,
    why: 'downloads a script and pipes it to a shell: whatever that URL serves runs on every matching event',
  },
  {
    re: /\brm\s+(?:-[A-Za-z]*\s+)*-[A-Za-z]*(?:r[A-Za-z]*f|f[A-Za-z]*r)[A-Za-z]*\s+(?:--no-preserve-root\s+)?(?:\/|\/\*|~|~\/|\$HOME|"\$HOME")(?:\s|$|;|&|\|)/,
    why: 'deletes a root or home directory recursively',
  },
  {
    re: /(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?[^\s"']*(?:\.claude\/settings(?:\.local)?\.json|managed-settings\.json|\.vscode\/settings\.json)/,
    why: 'writes to a settings file: a hook that rewrites hook configuration can make itself permanent',
  },
];

/** Why `command` is risky, or undefined. */
export function riskyCommandReason(command: string): string | undefined {
  for (const { re, why } of RISKS) if (re.test(command)) return `risky command: ${why}`;
  return undefined;
}
