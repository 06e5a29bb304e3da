/**
 * The file names FileChanged matchers list literally (`.envrc|.env`): Claude Code watches
 * those in the working directory. Regexes, `*` and paths name no file to watch.
 */
export function literalFileNames(matchers: readonly string[]): string[] {
  const names = new Set<string>();
  for (const m of matchers) {
    if (!/^[\w.\-|]+$/.test(m)) continue;
    for (const name of m.split('|')) if (name !== '' && name !== '.' && name !== '..') names.add(name);
  }
  return [...names];
}
