import type { JsonSegment } from '../../configFiles/jsonPath';
import type { NodeLocator, TextSpan } from '../../configFiles/nodeLocator';

/**
 * Where a path of a parsed TOML document (`['hooks', 'PreToolUse', 0, 'hooks', 1, 'command']`)
 * is written in its text, so a diagnostic about a Codex `config.toml` names the line: table
 * headers (`[hooks]`, `[[hooks.PreToolUse]]`, each array-of-tables header the next index of its
 * array), `key = value` lines with dotted and quoted keys, and the keys and elements of inline
 * tables and arrays. The TOML parser gives no positions, so this reads the text once more; it
 * only runs on a text the parser accepted, and a path it cannot place falls back to its nearest
 * placed ancestor (then to none: the diagnostic keeps its key path).
 */

/** Where one node is: its key (or header) and its value. */
interface Place {
  readonly key: TextSpan;
  readonly value: TextSpan;
}

const BARE_KEY = /[A-Za-z0-9_-]/;

/** A locator over `text`, a TOML document that parsed. Never throws. */
export function tomlLocator(text: string): NodeLocator {
  let places: Map<string, Place> | undefined;
  return {
    locate(path, options) {
      try {
        places ??= new TomlPlaces(text).read();
      } catch {
        places = new Map();
      }
      for (let n = path.length; n >= 0; n--) {
        const place = places.get(JSON.stringify(path.slice(0, n)));
        if (place) return options?.key === true && n === path.length ? place.key : place.value;
      }
      return undefined;
    },
  };
}

/** One pass over the text, recording each node's place by its path. */
class TomlPlaces {
  private pos = 0;
  private readonly places = new Map<string, Place>();
  /** How many elements each array of tables has so far, by its path. */
  private readonly arrayTables = new Map<string, number>();

  constructor(private readonly text: string) {}

  read(): Map<string, Place> {
    let table: JsonSegment[] = [];
    while (this.pos < this.text.length) {
      this.skipBlank(true);
      if (this.pos >= this.text.length) break;
      const start = this.pos;
      if (this.text[this.pos] === '[') {
        const array = this.text[this.pos + 1] === '[';
        this.pos += array ? 2 : 1;
        const keys = this.dottedKey();
        this.skipBlank(false);
        if (this.text[this.pos] === ']') this.pos += array && this.text[this.pos + 1] === ']' ? 2 : 1;
        table = this.header(keys, array, { offset: start, length: this.pos - start });
      } else {
        const keyStart = this.pos;
        const keys = this.dottedKey();
        const key = { offset: keyStart, length: this.trimmedEnd(keyStart, this.pos) - keyStart };
        this.skipBlank(false);
        if (this.text[this.pos] !== '=') {
          this.pos = this.lineEnd(this.pos);
          continue;
        }
        this.pos++;
        this.keyValue([...table, ...keys], key, keys.length);
      }
      this.pos = this.lineEnd(this.pos);
    }
    return this.places;
  }

  /** A `[a.b]` or `[[a.b]]` header: the table it opens, with the array index of each array of tables on the way. */
  private header(keys: readonly string[], array: boolean, span: TextSpan): JsonSegment[] {
    const resolved: JsonSegment[] = [];
    keys.forEach((key, i) => {
      resolved.push(key);
      const count = this.arrayTables.get(JSON.stringify(resolved));
      if (i < keys.length - 1 && count !== undefined) resolved.push(count - 1);
    });
    if (!array) {
      this.record(resolved, span, span);
      return resolved;
    }
    const id = JSON.stringify(resolved);
    const index = this.arrayTables.get(id) ?? 0;
    this.arrayTables.set(id, index + 1);
    this.record(resolved, span, span);
    const element = [...resolved, index];
    this.record(element, span, span);
    return element;
  }

  /** `key = value` at `path` (the value starts at `pos`). */
  private keyValue(path: JsonSegment[], key: TextSpan, dotted: number): void {
    this.skipBlank(false);
    const value = this.value(path);
    this.record(path, key, value, true);
    // `a.b.c = 1` also opens the tables `a` and `a.b` there (when nothing placed them before).
    for (let n = path.length - dotted + 1; n < path.length; n++) this.record(path.slice(0, n), key, key);
  }

  /** Reads one value at `pos`, recording what an inline table or array holds; returns its span. */
  private value(path: JsonSegment[]): TextSpan {
    const start = this.pos;
    const ch = this.text[this.pos];
    if (ch === '"' || ch === "'") this.string();
    else if (ch === '[') {
      this.pos++;
      for (let i = 0; ; i++) {
        this.skipBlank(true);
        if (this.pos >= this.text.length || this.text[this.pos] === ']') break;
        const element = this.pos;
        const span = this.value([...path, i]);
        this.record([...path, i], span, span);
        this.skipBlank(true);
        if (this.text[this.pos] === ',') this.pos++;
        else if (this.pos === element) break;
      }
      this.pos++;
    } else if (ch === '{') {
      this.pos++;
      for (;;) {
        this.skipBlank(false);
        if (this.pos >= this.text.length || this.text[this.pos] === '}' || this.text[this.pos] === '\n') break;
        const keyStart = this.pos;
        const keys = this.dottedKey();
        const key = { offset: keyStart, length: this.trimmedEnd(keyStart, this.pos) - keyStart };
        this.skipBlank(false);
        if (this.text[this.pos] !== '=') break;
        this.pos++;
        this.keyValue([...path, ...keys], key, keys.length);
        this.skipBlank(false);
        if (this.text[this.pos] === ',') this.pos++;
      }
      if (this.text[this.pos] === '}') this.pos++;
    } else {
      while (this.pos < this.text.length && !/[,\]}#\n\r]/.test(this.text[this.pos] as string)) this.pos++;
      return { offset: start, length: this.trimmedEnd(start, this.pos) - start };
    }
    return { offset: start, length: this.pos - start };
  }

  /** `a."b c".d`, spaces around the dots allowed; leaves `pos` after it. */
  private dottedKey(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.skipBlank(false);
      const ch = this.text[this.pos];
      if (ch === '"' || ch === "'") {
        const start = this.pos;
        this.string();
        keys.push(unquote(this.text.slice(start, this.pos)));
      } else {
        const start = this.pos;
        while (this.pos < this.text.length && BARE_KEY.test(this.text[this.pos] as string)) this.pos++;
        if (this.pos === start) return keys;
        keys.push(this.text.slice(start, this.pos));
      }
      this.skipBlank(false);
      if (this.text[this.pos] !== '.') return keys;
      this.pos++;
    }
  }

  /** Skips a basic, literal or multi-line string starting at `pos`. */
  private string(): void {
    const quote = this.text[this.pos] as string;
    const triple = this.text.startsWith(quote.repeat(3), this.pos);
    this.pos += triple ? 3 : 1;
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === '\\' && quote === '"') this.pos += 2;
      else if (triple && this.text.startsWith(quote.repeat(3), this.pos)) {
        this.pos += 3;
        // Up to two more quotes may close it (`""""` ends with a quote in the string).
        while (this.text[this.pos] === quote) this.pos++;
        return;
      } else if (!triple && (ch === quote || ch === '\n')) {
        if (ch === quote) this.pos++;
        return;
      } else this.pos++;
    }
  }

  /** Spaces and tabs; with `lines`, also line breaks and comments. */
  private skipBlank(lines: boolean): void {
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === ' ' || ch === '\t') this.pos++;
      else if (lines && (ch === '\n' || ch === '\r')) this.pos++;
      else if (lines && ch === '#') this.pos = this.lineEnd(this.pos);
      else return;
    }
  }

  private lineEnd(from: number): number {
    const end = this.text.indexOf('\n', from);
    return end < 0 ? this.text.length : end + 1;
  }

  /** `end` moved back over trailing blanks. */
  private trimmedEnd(start: number, end: number): number {
    let e = end;
    while (e > start && /\s/.test(this.text[e - 1] as string)) e--;
    return e;
  }

  private record(path: readonly JsonSegment[], key: TextSpan, value: TextSpan, replace = false): void {
    const id = JSON.stringify(path);
    if (replace || !this.places.has(id)) this.places.set(id, { key, value });
  }
}

function unquote(quoted: string): string {
  if (quoted.startsWith("'")) return quoted.replace(/^'+|'+$/g, '');
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
