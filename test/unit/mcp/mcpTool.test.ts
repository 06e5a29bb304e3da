import { describe, expect, it } from 'vitest';
import { compileInputSchema as compile } from '../../../src/mcp/mcpClient';
import { createMcpTool } from '../../../src/mcp/mcpTool';
import { mapCallToolResult } from '../../../src/mcp/mcpResultMapping';

const call = () => Promise.resolve({ content: 'unused', isError: false });

describe('createMcpTool', () => {
  it('refuses an input schema nested too deep instead of sending it to the model', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) schema = { type: 'object', properties: { x: schema } };
    const made = createMcpTool('s', { name: 'deep', inputSchema: schema as { type: 'object' } }, 'mcp__s__deep', call, { trustReadOnlyHint: false, compile });
    expect(made).toEqual({ server: 's', tool: 'deep', message: expect.stringContaining('nested deeper than 32 levels') });
  });

  it('runs a readOnlyHint tool without asking only when the setting trusts the hint', () => {
    const tool = { name: 'peek', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } };
    const trusted = createMcpTool('s', tool, 'mcp__s__peek', call, { trustReadOnlyHint: true, compile });
    const untrusted = createMcpTool('s', tool, 'mcp__s__peek', call, { trustReadOnlyHint: false, compile });
    expect(trusted).toMatchObject({ readOnly: true, needsApproval: false });
    expect(untrusted).toMatchObject({ readOnly: false, needsApproval: true });
  });
});

describe('mapCallToolResult', () => {
  it('keeps a large image out of tool_response (hooks read it on stdin) and names its size for the model', () => {
    const data = Buffer.alloc(300_000, 1).toString('base64');
    const result = mapCallToolResult({ content: [{ type: 'image', data, mimeType: 'image/png' }] });
    expect(result.content).toBe('[image: image/png, 300000 bytes]');
    expect(result.data).toEqual([{ type: 'image', mimeType: 'image/png', data: '[300000 bytes left out]' }]);
  });
});
