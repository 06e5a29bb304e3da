#!/usr/bin/env node
// Secret redactor (AfterInference): API keys and tokens in the model's reply are replaced before
// the chat shows it or the transcript keeps it. Works unchanged as a Gemini CLI AfterModel hook.
const fs = require('node:fs');

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const text = input.llm_response?.text ?? '';
const SECRETS = /\b(sk-[A-Za-z0-9_-]{8,}|ghp_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16}|xox[bp]-[A-Za-z0-9-]{10,})\b/g;
const redacted = text.replace(SECRETS, '[REDACTED]');
if (redacted !== text) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { candidates: [{ content: { role: 'model', parts: [redacted] } }] } } }));
}
