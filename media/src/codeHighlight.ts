import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * Syntax highlighting for the chat's fenced code blocks: highlight.js core with the languages
 * a coding agent writes most, each registered by hand so the webview bundle carries only
 * these (the full build is ~190 languages). Aliases come with each language (`ts`, `sh`,
 * `py`, `html`, `yml`, `toml`…). Colours are the theme's, in media/codeHighlight.css.
 */
const LANGUAGES = { bash, c, cpp, csharp, css, diff, go, ini, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

/** Longest code block highlighted; a longer one stays plain so a huge paste cannot stall the chat. */
const MAX_HIGHLIGHTED = 100_000;

/**
 * `code` as highlighted HTML (escaped text in `hljs-*` spans) for the fence's language, or
 * undefined when the language is unknown or not given (no guessing: a wrong guess reads worse
 * than plain text) or the block is too long.
 */
export function highlightCode(code: string, language: string): string | undefined {
  const name = language.trim().toLowerCase();
  if (name === '' || code.length > MAX_HIGHLIGHTED || !hljs.getLanguage(name)) return undefined;
  try {
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}
