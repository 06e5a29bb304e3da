import type * as Yaml from 'yaml';

let lib: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on the first call (the first YAML document read or located), not
 * when the extension or CLI starts. The build ships it as its own file beside the bundle
 * (dist/yaml.js); unbundled (tests) it is the package itself. Value imports of `yaml` go through
 * here; type imports stay as they are.
 */
export function yamlLib(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load: esbuild turns it into require('./yaml.js')
  lib ??= require('yaml') as typeof Yaml;
  return lib;
}
