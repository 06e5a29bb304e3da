// The scripted sessions recordClaudeCodeSamples.mjs plays against Claude Code.
// Each turn answers one main-conversation request (one that offers tools), in order;
// a subagent's requests come in between its parent's turns, so they are listed there.

/** @type {Array<{name: string, prompt: string, turns: object[], args?: string[], env?: object, failEvents?: string[], files?: object}>} */
/** Two Bash calls whose first reply reports a 975,000-token prompt: the auto-compaction sessions replay it. */
const COMPACT_TURNS = [
  {
    idPrefix: 'c1',
    inputTokens: 975000,
    tools: [{ name: 'Bash', input: { command: 'echo one', description: 'Print one' } }],
  },
  { idPrefix: 'c2', capture: true, tools: [{ name: 'Bash', input: { command: 'echo two', description: 'Print two' } }] },
  { capture: true, text: 'Both commands ran.' },
];

export const sessions = [
  {
    name: 'bash',
    prompt: 'Run two shell commands.',
    turns: [
      { idPrefix: 'bash_ok', tools: [{ name: 'Bash', input: { command: 'echo hello', description: 'Print hello' } }] },
      {
        idPrefix: 'bash_fail',
        tools: [{ name: 'Bash', input: { command: 'echo partial; echo "it broke" >&2; exit 2', description: 'Fail on purpose' } }],
      },
      { text: 'The first command printed hello; the second failed with exit code 2.' },
    ],
  },
  {
    name: 'writeEdit',
    prompt: 'Create notes.txt, then change it.',
    turns: [
      { idPrefix: 'write', tools: [{ name: 'Write', input: { file_path: '<cwd>/notes.txt', content: 'alpha\nbeta\n' } }] },
      {
        idPrefix: 'edit',
        tools: [{ name: 'Edit', input: { file_path: '<cwd>/notes.txt', old_string: 'beta', new_string: 'gamma' } }],
      },
      { text: 'notes.txt now says alpha and gamma.' },
    ],
  },
  {
    name: 'agent',
    prompt: 'Ask a subagent to check the date.',
    turns: [
      {
        idPrefix: 'agent',
        tools: [
          {
            name: 'Agent',
            input: {
              description: 'Check the date',
              prompt: 'Run `date +%Y` and tell me the year.',
              subagent_type: 'general-purpose',
              run_in_background: false,
            },
          },
        ],
      },
      // the subagent's own two requests
      { idPrefix: 'sub_bash', tools: [{ name: 'Bash', input: { command: 'echo 2026', description: 'Print the year' } }] },
      { text: 'The year is 2026.' },
      // back in the main conversation
      { text: 'The subagent says the year is 2026.' },
    ],
  },
  {
    // The Agent tool's default: the subagent runs in the background and the main turn goes on.
    name: 'agentBackground',
    prompt: 'Ask a background subagent to check the date.',
    turns: [
      {
        idPrefix: 'bgagent',
        tools: [{ name: 'Agent', input: { description: 'Check the date', prompt: 'BGMARK: run `echo 2026` and report.' } }],
      },
      { text: 'I started a subagent; it will report back.' },
      { text: 'The subagent says the year is 2026.' },
      { text: 'Nothing else to do.' },
    ],
    subagent: {
      marker: 'BGMARK',
      turns: [{ idPrefix: 'bgsub', tools: [{ name: 'Bash', input: { command: 'echo 2026', description: 'Print the year' } }] }, { text: 'The year is 2026.' }],
    },
  },
  {
    // claude-sonnet-4-5 takes no effort parameter, so Claude Code sends no effort key with it: use a model that does.
    name: 'stopEffort',
    prompt: 'Say hello.',
    model: 'claude-opus-4-5',
    args: ['--effort', 'high'],
    turns: [{ text: 'Hello! This is the final answer.' }],
  },
  {
    name: 'stopDefaultEffort',
    prompt: 'Run one command, then say hello.',
    model: 'claude-opus-4-5',
    turns: [
      { idPrefix: 'e1', tools: [{ name: 'Bash', input: { command: 'echo hi', description: 'Print hi' } }] },
      { text: 'Hello! This is the final answer.' },
    ],
  },
  {
    name: 'tasks',
    prompt: 'Track a task and finish it.',
    failEvents: ['TaskCompleted'],
    turns: [
      {
        idPrefix: 'tcreate',
        tools: [{ name: 'TaskCreate', input: { subject: 'Write docs', description: 'Write the docs', activeForm: 'Writing docs' } }],
      },
      { idPrefix: 'tupdate', tools: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }] },
      { text: 'The task could not be completed.' },
    ],
  },
  {
    name: 'autoCompact',
    prompt: 'Run a command, then another.',
    turns: COMPACT_TURNS,
  },

  {
    // Same script, with the auto-compact window set explicitly (the default window source "auto" never compacts before a request).
    name: 'autoCompactWindow',
    prompt: 'Run a command, then another.',
    args: ['--autocompact', '200000'],
    turns: COMPACT_TURNS,
  },
  {
    // The API refuses a request as too long: Claude Code's reactive compaction.
    name: 'promptTooLong',
    prompt: 'Run a command, then another.',
    turns: [
      { idPrefix: 'p1', tools: [{ name: 'Bash', input: { command: 'echo one', description: 'Print one' } }] },
      { error: { status: 400, type: 'invalid_request_error', message: 'prompt is too long: 1000500 tokens > 1000000 maximum' } },
      { idPrefix: 'p2', capture: true, tools: [{ name: 'Bash', input: { command: 'echo two', description: 'Print two' } }] },
      { capture: true, text: 'Both commands ran.' },
    ],
  },

  {
    // An auto-compact window far above any model's: the window in force is then the model's own, which the
    // debug log shows as effectiveWindow (the window less the reply reserve). Recorded with CCREC_DEBUG=1.
    name: 'modelWindow',
    prompt: 'Run a command, then another.',
    env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000000' },
    turns: [{ idPrefix: 'w1', inputTokens: 1000, tools: [{ name: 'Bash', input: { command: 'echo one', description: 'Print one' } }] }, { text: 'Done.' }],
  },
];
