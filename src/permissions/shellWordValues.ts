/**
 * The values bash would give one shell word as written (the lexer's `raw`): quotes removed,
 * `$'…'` escapes decoded (`$'\x2eclaude'` is `.claude`), brace expansion applied
 * (`.cl{a,}ude` is `.claude` and `.clude`; `{a..c}`). Parameter, command and arithmetic
 * expansions stay as written and mark the word unresolved: what they produce is known only
 * when the command runs. Used by protectedBash.ts to see a protected name however it is spelled.
 */

/** Values one word may expand to; more makes the word unresolved. */
const MAX_VALUES = 64;

/** What a word may become. */
export interface WordValues {
  /** Every value brace expansion yields (the word itself when there are no braces). */
  readonly values: readonly string[];
  /** True when part of the word is only known at run time (`$X`, `$(…)`, backticks) or the braces yield too many values. */
  readonly unresolved: boolean;
}

/** One character of the word after quote removal; `quoted` characters take no part in brace expansion. */
interface Char {
  readonly ch: string;
  readonly quoted: boolean;
}

/** The values of `raw` (one word as the lexer scanned it). Never throws. */
export function wordValues(raw: string): WordValues {
  const { chars, unresolved } = removeQuotes(raw);
  const expanded = expandBraces(chars, 0);
  if (expanded === undefined) return { values: [chars.map((c) => c.ch).join('')], unresolved: true };
  return { values: expanded, unresolved };
}

function removeQuotes(raw: string): { chars: Char[]; unresolved: boolean } {
  const chars: Char[] = [];
  let unresolved = false;
  const lit = (text: string, quoted: boolean): void => {
    for (const ch of text) chars.push({ ch, quoted });
  };
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i] as string;
    const next = raw[i + 1];
    if (ch === '\\') {
      if (next !== undefined) lit(next, true);
      i += 2;
    } else if (ch === "'") {
      const end = raw.indexOf("'", i + 1);
      lit(raw.slice(i + 1, end < 0 ? raw.length : end), true);
      i = end < 0 ? raw.length : end + 1;
    } else if (ch === '$' && next === "'") {
      const { text, end } = ansiC(raw, i + 2);
      lit(text, true);
      i = end;
    } else if (ch === '"' || (ch === '$' && next === '"')) {
      i += ch === '$' ? 2 : 1;
      while (i < raw.length && raw[i] !== '"') {
        const c = raw[i] as string;
        if (c === '\\' && /[$`"\\]/.test(raw[i + 1] ?? '')) {
          lit(raw[i + 1] as string, true);
          i += 2;
          continue;
        }
        if ((c === '$' && /[A-Za-z_{(0-9@*#?!$-]/.test(raw[i + 1] ?? '')) || c === '`') unresolved = true;
        lit(c, true);
        i++;
      }
      i++;
    } else {
      if ((ch === '$' && next !== undefined && /[A-Za-z_{(0-9@*#?!$-]/.test(next)) || ch === '`') unresolved = true;
      // `${a,b}` is a parameter expansion, not a brace list: keep its braces out of brace expansion.
      if (ch === '$' && next === '{') {
        const close = raw.indexOf('}', i);
        lit(raw.slice(i, close < 0 ? raw.length : close + 1), true);
        i = close < 0 ? raw.length : close + 1;
        continue;
      }
      lit(ch, false);
      i++;
    }
  }
  return { chars, unresolved };
}

/** Decodes `$'…'` from `start` (after the opening quote); returns the text and the index after the closing quote. */
function ansiC(raw: string, start: number): { text: string; end: number } {
  let text = '';
  let i = start;
  while (i < raw.length && raw[i] !== "'") {
    const ch = raw[i] as string;
    if (ch !== '\\') {
      text += ch;
      i++;
      continue;
    }
    const e = raw[i + 1] ?? '';
    i += 2;
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      e: '\x1b',
      E: '\x1b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      "'": "'",
      '"': '"',
      '?': '?',
    };
    if (e in simple) text += simple[e];
    else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{0,2}/.exec(raw.slice(i))?.[0] ?? '';
      text += String.fromCharCode(parseInt(e + m, 8) & 0xff);
      i += m.length;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const max = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const m = new RegExp(`^[0-9A-Fa-f]{1,${max}}`).exec(raw.slice(i))?.[0];
      if (m === undefined) text += `\\${e}`;
      else {
        const code = parseInt(m, 16);
        text += code <= 0x10ffff ? String.fromCodePoint(code) : '';
        i += m.length;
      }
    } else if (e === 'c') {
      const c = raw[i] ?? '';
      text += String.fromCharCode(c.toUpperCase().charCodeAt(0) ^ 0x40);
      i++;
    } else text += `\\${e}`;
  }
  return { text, end: Math.min(i + 1, raw.length) };
}

/** bash brace expansion over unquoted `{…,…}` and `{x..y}`; undefined past MAX_VALUES. */
function expandBraces(chars: readonly Char[], depth: number): string[] | undefined {
  if (depth > 8) return undefined;
  for (let open = 0; open < chars.length; open++) {
    if (!isBare(chars[open], '{')) continue;
    const parts = braceParts(chars, open);
    if (parts === undefined) continue;
    const { alternatives, close } = parts;
    const prefix = chars.slice(0, open);
    const suffixes = expandBraces(chars.slice(close + 1), depth + 1);
    if (suffixes === undefined) return undefined;
    const out: string[] = [];
    const head = prefix.map((c) => c.ch).join('');
    for (const alt of alternatives) {
      const inner = typeof alt === 'string' ? [alt] : expandBraces(alt, depth + 1);
      if (inner === undefined) return undefined;
      for (const a of inner) for (const s of suffixes) out.push(head + a + s);
      if (out.length > MAX_VALUES) return undefined;
    }
    return out;
  }
  return [chars.map((c) => c.ch).join('')];
}

function isBare(c: Char | undefined, ch: string): boolean {
  return c !== undefined && !c.quoted && c.ch === ch;
}

/** The alternatives of the brace group opening at `open`, or undefined when it is not one (no top-level comma, no valid sequence). */
function braceParts(chars: readonly Char[], open: number): { alternatives: (readonly Char[] | string)[]; close: number } | undefined {
  let nest = 0;
  const commas: number[] = [];
  for (let i = open + 1; i < chars.length; i++) {
    if (isBare(chars[i], '{')) nest++;
    else if (isBare(chars[i], '}')) {
      if (nest > 0) {
        nest--;
        continue;
      }
      if (commas.length > 0) {
        const bounds = [open, ...commas, i];
        return { alternatives: bounds.slice(1).map((end, k) => chars.slice((bounds[k] as number) + 1, end)), close: i };
      }
      const seq = sequence(
        chars
          .slice(open + 1, i)
          .map((c) => c.ch)
          .join(''),
      );
      return seq === undefined ? undefined : { alternatives: seq, close: i };
    } else if (nest === 0 && isBare(chars[i], ',')) commas.push(i);
  }
  return undefined;
}

/** `{1..3}`, `{a..c}`, `{1..9..2}`; undefined when not a sequence or too long. */
function sequence(body: string): string[] | undefined {
  const m = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (!m) return undefined;
  const [from, to, stepText] = [m[1] as string, m[2] as string, m[3]];
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return undefined;
  const a = numeric ? parseInt(from, 10) : from.charCodeAt(0);
  const b = numeric ? parseInt(to, 10) : to.charCodeAt(0);
  const step = Math.abs(parseInt(stepText ?? '1', 10)) || 1;
  if (Math.abs(b - a) / step > MAX_VALUES) return undefined;
  const out: string[] = [];
  for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}
