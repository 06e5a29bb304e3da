import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../agent/tools/tool';
import { truncateMiddle } from '../agent/tools/truncate';

/** Most characters of an MCP result the model sees (Claude Code warns past 10k tokens and cuts at 25k). */
export const MAX_MCP_RESULT_CHARS = 100_000;

/**
 * An MCP `tools/call` result as a tool result. The model sees text: text blocks as they are,
 * images and audio as a line naming their type and size (the model adapters carry text
 * only), resource links and embedded resources by URI (with their text when embedded), and
 * `structuredContent` as JSON when no text block carries it. Over {@link MAX_MCP_RESULT_CHARS}
 * the middle is cut with a marker, like Read and Bash. `data` (PostToolUse's `tool_response`)
 * is the result's content blocks, as Claude Code passes them, plus `structuredContent`.
 * `isError: true` results are failures (PostToolUseFailure).
 */
export function mapCallToolResult(result: CallToolResult, maxChars = MAX_MCP_RESULT_CHARS): ToolResult {
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type}: ${block.mimeType}, ${approxBytes(block.data)} bytes]`);
        break;
      case 'resource_link':
        parts.push(`[resource link: ${block.name}${block.title ? ` (${block.title})` : ''} ${block.uri}${block.mimeType ? ` ${block.mimeType}` : ''}]`);
        break;
      case 'resource': {
        const r = block.resource;
        parts.push('text' in r ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}, ${approxBytes(r.blob)} bytes]`);
        break;
      }
      default:
        parts.push(`[${(block as { type: string }).type} content]`);
    }
  }
  const structured = result.structuredContent;
  const hasText = content.some((b) => b.type === 'text');
  if (structured !== undefined && !hasText) parts.push(safeJson(structured));
  let text = parts.join('\n');
  if (text === '') text = result.isError ? 'The MCP tool failed without a message.' : '(no output)';
  const cut = truncateMiddle(text, maxChars);
  const blocks = content.map(withoutBulkData);
  const data = structured === undefined ? blocks : { content: blocks, structuredContent: structured };
  return { content: cut.text, isError: result.isError === true, data };
}

/** Base64 payloads longer than this are left out of `tool_response` (hooks read it on stdin). */
const MAX_INLINE_DATA = 64 * 1024;

/** A block for `tool_response`: an image's, audio's or blob's base64 over the limit becomes a note of its size. */
function withoutBulkData(block: CallToolResult['content'][number]): unknown {
  if ((block.type === 'image' || block.type === 'audio') && block.data.length > MAX_INLINE_DATA)
    return { ...block, data: `[${approxBytes(block.data)} bytes left out]` };
  if (block.type === 'resource' && 'blob' in block.resource && block.resource.blob.length > MAX_INLINE_DATA)
    return { ...block, resource: { ...block.resource, blob: `[${approxBytes(block.resource.blob)} bytes left out]` } };
  return block;
}

/** Decoded size of base64 data. */
function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '[structured content that cannot be shown]';
  }
}
