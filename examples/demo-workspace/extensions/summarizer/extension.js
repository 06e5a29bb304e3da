// A summarizer that replaces Hookwise's built-in compaction, installed through the public API.
// No model call: the summary lists the user's requests and the files the agent touched, which is
// cheap, deterministic and easy to check in the transcript. Switch `built-in compaction` off for
// it to be the only one (Disable Hook on a "built-in: compaction" run, with Show Built-in Hooks).
const vscode = require('vscode');

/** The older turns → a short summary: each user request and every file path a tool call named. */
function summarize(messages, instructions) {
  const requests = messages
    .filter((m) => m.role === 'user' && !m.content.startsWith('<system-reminder>'))
    .map((m) => `- ${m.content.replace(/\s+/g, ' ').slice(0, 200)}`);
  const files = new Set();
  for (const m of messages)
    for (const call of m.toolCalls ?? []) {
      const match = /"(?:file_path|path)"\s*:\s*"([^"]+)"/.exec(call.argumentsText);
      if (match) files.add(match[1]);
    }
  return Promise.resolve(
    [
      'Summary by the demo summarizer.',
      `The user asked:\n${requests.join('\n') || '- (nothing yet)'}`,
      `Files the agent touched: ${[...files].join(', ') || 'none'}`,
      ...(instructions.length > 0 ? [`Kept as asked: ${instructions.join(' ')}`] : []),
    ].join('\n\n'),
  );
}

async function activate(context) {
  const api = await vscode.extensions.getExtension('hookwise.hookwise').activate();
  const hooks = api.forExtension(context.extension);
  context.subscriptions.push(hooks.use(api.compactionProvider({ name: 'demo summarizer', summarize })));
}

module.exports = { activate, summarize };
