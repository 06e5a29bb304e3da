import type * as OpenAiPackage from 'openai';

let lib: typeof OpenAiPackage | undefined;

/**
 * The `openai` package, loaded on the first call: when an OpenAI-compatible model is set up, not
 * when the extension starts (the Playground and VS Code's language models never load it). The
 * extension build ships it as its own file beside extension.js (dist/openai.js); the CLI bundles
 * it (its code cache covers it), and unbundled (tests) it is the package itself. Value imports of
 * `openai` go through here; type imports stay as they are.
 */
export function openAiSdk(): typeof OpenAiPackage {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load: the extension build turns it into require('./openai.js')
  lib ??= require('openai') as typeof OpenAiPackage;
  return lib;
}

/** The package if something loaded it already, else undefined (an error cannot come from an SDK never loaded). */
export function openAiSdkIfLoaded(): typeof OpenAiPackage | undefined {
  return lib;
}
