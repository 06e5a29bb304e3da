/**
 * Here-document bodies: after a newline the shell reads the bodies of the here-documents
 * opened on that line; an unquoted body is expanded, so the commands nested in it run.
 */
import type { WordScanner } from './wordScanner';

/** After a newline (at `lexer.pos`): reads the bodies of the here-documents opened on the line. */
export function readHeredocs(lexer: WordScanner): void {
  const src = lexer.src;
  for (const doc of lexer.pending) {
    const start = lexer.pos;
    let body: string | undefined;
    while (lexer.pos < src.length) {
      const nl = src.indexOf('\n', lexer.pos);
      const end = nl < 0 ? src.length : nl;
      const line = src.slice(lexer.pos, end);
      const lineStart = lexer.pos;
      lexer.pos = nl < 0 ? src.length : nl + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) {
        body = src.slice(start, lineStart);
        break;
      }
      // The shells join such a line with the next before looking for the delimiter.
      if (!doc.quoted && /(^|[^\\])(\\\\)*\\$/.test(line)) lexer.unsure('here-document line ends with a backslash');
    }
    if (body === undefined) {
      lexer.unsure('unterminated here-document');
      body = src.slice(start);
    }
    doc.into.push(body);
    if (!doc.quoted) lexer.nested(body).scanExpanding(false);
  }
  lexer.pending = [];
}
