import type { ConfigDiagnostic, ConfigDiagnosticCode } from './configDiagnostic';
import { lineStarts, offsetToLineColumn } from './configDiagnostic';
import { formatJsonPath, type JsonSegment } from './jsonPath';
import type { NodeLocator } from './nodeLocator';

/** Extra detail for one report. */
export interface ReportOptions {
  /** Point at the property name instead of its value (unknown keys). */
  readonly key?: boolean;
  readonly suggestion?: string;
}

/**
 * Collects diagnostics for one document: turns a segment path into the display JSON path
 * and, when the text is known, into line and column.
 */
export class DiagnosticSink {
  readonly diagnostics: ConfigDiagnostic[] = [];
  private starts: number[] | undefined;

  constructor(
    private readonly where: {
      readonly file?: string;
      readonly displayFile: string;
      readonly text?: string;
      readonly locator?: NodeLocator;
      readonly pathRoot?: string;
    },
  ) {}

  /** The display form of `segments` in this document, e.g. `hookwise.hooks.Stop[0]`. */
  jsonPath(segments: readonly JsonSegment[]): string {
    return formatJsonPath(segments, this.where.pathRoot);
  }

  report(severity: 'error' | 'warning', code: ConfigDiagnosticCode, segments: readonly JsonSegment[], message: string, options: ReportOptions = {}): void {
    const span = this.where.locator?.locate(segments, { key: options.key === true });
    let position: { line: number; column: number } | undefined;
    if (span && this.where.text !== undefined) {
      this.starts ??= lineStarts(this.where.text);
      position = offsetToLineColumn(this.starts, span.offset);
    }
    this.diagnostics.push({
      ...(this.where.file !== undefined ? { file: this.where.file } : {}),
      displayFile: this.where.displayFile,
      jsonPath: this.jsonPath(segments),
      ...(position ? { line: position.line, column: position.column } : {}),
      ...(span ? { offset: span.offset, length: span.length } : {}),
      severity,
      code,
      message,
      ...(options.suggestion !== undefined ? { suggestion: options.suggestion } : {}),
    });
  }

  /** A diagnostic at a known offset (syntax errors), not at a JSON path. */
  reportAt(severity: 'error' | 'warning', code: ConfigDiagnosticCode, offset: number, length: number, message: string): void {
    let position: { line: number; column: number } | undefined;
    if (this.where.text !== undefined) {
      this.starts ??= lineStarts(this.where.text);
      position = offsetToLineColumn(this.starts, offset);
    }
    this.diagnostics.push({
      ...(this.where.file !== undefined ? { file: this.where.file } : {}),
      displayFile: this.where.displayFile,
      jsonPath: this.where.pathRoot ?? '',
      ...(position ? { line: position.line, column: position.column } : {}),
      offset,
      length,
      severity,
      code,
      message,
    });
  }
}

/** Short description of a value for messages: `the string "60"`, `an array`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
