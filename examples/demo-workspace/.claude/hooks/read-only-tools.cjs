#!/usr/bin/env node
// Read-only tool filter (BeforeToolSelection): the model is offered only tools that read.
// A filter only narrows: a tool the rules or the mode took away never comes back.
process.stdout.write(
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'AUTO', allowedFunctionNames: ['Read', 'Grep', 'Glob', 'TaskList', 'TaskGet'] } } }),
);
