// A scripted stand-in for the Anthropic Messages API, used by recordClaudeCodeSamples.mjs.
// Requests that offer tools are the conversation: each gets the next scripted turn. A compaction request gets a
// fixed summary; any other (title, side) request a short text; count_tokens a fixed count.
import { createServer } from 'node:http';

/** The recording's shared state; one server serves one recording at a time. */
let state;

// ---------- the scripted Anthropic Messages API ----------

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

function lastUserText(body) {
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((c) => (c.type === 'text' ? c.text : c.type === 'tool_result' ? '[tool_result]' : `[${c.type}]`)).join(' ');
}

function systemText(body) {
  if (typeof body.system === 'string') return body.system;
  return (body.system ?? []).map((s) => s.text ?? '').join(' ');
}

/** Decides which kind of request this is: the scripted conversation, a compaction, or a side request. */
function classify(body) {
  const text = lastUserText(body);
  if (/summary of the conversation|create a detailed summary|summari[sz]e (the|this) conversation/i.test(text)) return 'compact';
  if (Array.isArray(body.tools) && body.tools.length > 0 && body.stream) return 'turn';
  return 'side';
}

function streamReply(res, model, reply) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `msg_${Math.random().toString(36).slice(2, 12)}`;
  const usage = { input_tokens: reply.inputTokens ?? 100, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  sse(res, 'message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  let index = 0;
  if (reply.text) {
    sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
    sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: reply.text } });
    sse(res, 'content_block_stop', { index });
    index++;
  }
  for (const [n, tool] of (reply.tools ?? []).entries()) {
    const toolId = `toolu_${reply.idPrefix ?? 'x'}${String(n).padStart(2, '0')}`;
    sse(res, 'content_block_start', { index, content_block: { type: 'tool_use', id: toolId, name: tool.name, input: {} } });
    const json = JSON.stringify(tool.input).split('<cwd>').join(state.script.cwd);
    const half = Math.floor(json.length / 2);
    sse(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } });
    sse(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } });
    sse(res, 'content_block_stop', { index });
    index++;
  }
  const stopReason = reply.tools?.length ? 'tool_use' : 'end_turn';
  sse(res, 'message_delta', {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { input_tokens: usage.input_tokens, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  });
  sse(res, 'message_stop', {});
  res.end();
}

function jsonReply(res, model, text) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'msg_side',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  );
}

function handleMessages(req, res, body) {
  const kind = classify(body);
  const entry = {
    path: req.url,
    kind,
    model: body.model,
    stream: !!body.stream,
    tools: (body.tools ?? []).map((t) => t.name),
    messages: (body.messages ?? []).length,
    system: systemText(body).slice(0, 160),
    lastUser: lastUserText(body).slice(0, 400),
  };
  state.requestLog.push(entry);
  let reply;
  if (kind === 'turn') {
    // A background subagent's requests interleave with the main conversation's: route them by a marker.
    const sub = state.script.subagent && JSON.stringify(body.messages?.[0] ?? '').includes(state.script.subagent.marker);
    if (sub) {
      reply = state.script.subagent.turns[state.script.subNext++];
      entry.subTurn = state.script.subNext - 1;
    } else {
      reply = state.script.turns[state.script.next++];
      entry.turn = state.script.next - 1;
    }
    if (!reply) reply = { text: 'Done.' };
    if (reply.capture) entry.body = body;
  } else if (kind === 'compact') {
    reply = { text: '<summary>The user asked for two shell commands; both ran. Nothing is pending.</summary>' };
    entry.body = body;
  } else {
    reply = { text: 'Recorded session' };
  }
  if (reply.error) {
    res.writeHead(reply.error.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: reply.error.type, message: reply.error.message } }));
    return;
  }
  if (body.stream) streamReply(res, body.model, reply);
  else jsonReply(res, body.model, reply.text);
}

/**
 * A local server speaking the Anthropic Messages API (streaming SSE and plain JSON) for Claude Code.
 * `state.script` holds the scripted turns of the session being recorded ({turns, next, subagent, subNext, cwd});
 * every request is summarised into `state.requestLog`.
 */
export function createMessagesServer(shared) {
  state = shared;
  return createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = {};
      }
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
        state.requestLog.push({ path: req.url, kind: 'count_tokens' });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 100 }));
        return;
      }
      if (req.method === 'POST' && path === '/v1/messages') {
        handleMessages(req, res, body);
        return;
      }
      state.requestLog.push({ path: req.url, method: req.method, kind: 'other' });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not here' } }));
    });
  });
}
