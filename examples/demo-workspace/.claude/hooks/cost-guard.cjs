#!/usr/bin/env node
// Cost guard (BeforeInference + AfterInference): a question asked before is answered from a
// cache, without calling the model. Works unchanged as a Gemini CLI BeforeModel/AfterModel hook.
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const request = input.llm_request;
const last = request?.messages?.at(-1);
// Only a fresh question (the last message is the user's) is cached; tool steps always go to the model.
if (!last || last.role !== 'user') process.exit(0);
const dir = path.join(process.env.CLAUDE_PROJECT_DIR || input.cwd, '.hookwise', 'answer-cache');
const file = path.join(dir, `${crypto.createHash('sha256').update(`${request.model}\n${last.content}`).digest('hex')}.txt`);

if (input.hook_event_name === 'BeforeInference') {
  if (!fs.existsSync(file)) process.exit(0);
  const text = fs.readFileSync(file, 'utf8');
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeModel', llm_response: { candidates: [{ content: { role: 'model', parts: [text] }, finishReason: 'STOP' }] } } }));
} else if (input.hook_event_name === 'AfterInference' && !input.answered_by_hook) {
  // The model's own reply is cached; a cached answer flows through AfterInference again, so the redactor still applies.
  const reply = input.llm_response;
  if (reply && reply.tool_calls.length === 0 && reply.text.trim() !== '') {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, reply.text);
  }
}
