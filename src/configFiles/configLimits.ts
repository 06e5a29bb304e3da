/**
 * Bounds on configuration input (docs/security.md). Config files come from the workspace, so
 * they are outside input: each is read and parsed with limits, and a file over a limit becomes
 * one diagnostic while every other source still loads.
 */

/** Largest config file read (settings JSON, agent markdown): 2 MiB. Real ones are a few KiB. */
export const MAX_CONFIG_FILE_BYTES = 2 * 1024 * 1024;

/** Deepest JSON/YAML nesting accepted; the hooks format needs 6 levels, 64 leaves room for other tools' keys. */
export const MAX_CONFIG_DEPTH = 64;

/** Most alias expansions in an agent file's YAML frontmatter (a "billion laughs" needs thousands). */
export const MAX_YAML_ALIASES = 50;

/** Most `.md` files read from one agents directory; the rest are reported and skipped. */
export const MAX_AGENT_FILES = 500;

/** A file over MAX_CONFIG_FILE_BYTES (thrown by the file system port, reported as `tooLarge`). */
export class ConfigFileTooLargeError extends Error {
  constructor(
    readonly file: string,
    readonly size: number,
  ) {
    super(`the file is ${formatBytes(size)}, over the ${formatBytes(MAX_CONFIG_FILE_BYTES)} limit for configuration files`);
    this.name = 'ConfigFileTooLargeError';
  }
}

/** `2.0 MiB`, `512 KiB`, `12 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}

/**
 * Offset of the first `{` or `[` that nests deeper than `maxDepth` in a JSON/JSONC text, or
 * undefined when the text stays within it. One linear pass, no recursion (the parsers recurse
 * and overflow the stack on deep input); strings and comments are skipped, so brackets inside
 * them do not count.
 */
export function findExcessNesting(text: string, maxDepth: number = MAX_CONFIG_DEPTH): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22 /* " */) {
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c /* \ */) i++;
        else if (c === 0x22 || c === 0x0a) break;
      }
    } else if (ch === 0x2f /* / */ && text.charCodeAt(i + 1) === 0x2f) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (ch === 0x2f && text.charCodeAt(i + 1) === 0x2a /* * */) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > maxDepth) return i;
    } else if ((ch === 0x7d /* } */ || ch === 0x5d) /* ] */ && depth > 0) {
      depth--;
    }
  }
  return undefined;
}
