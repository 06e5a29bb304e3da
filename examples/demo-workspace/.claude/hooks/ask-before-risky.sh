#!/bin/sh
# PreToolUse hook for Bash: some commands need a person every time, whatever the
# permission mode or rules say. Printing permissionDecision "ask" makes Hookwise show
# an approval popup (Allow / Deny) that names this hook.
# Input: the hook event as JSON on stdin (tool_input.command holds the shell command).
input=$(cat)
cmd=$(printf '%s' "$input" | sed -n 's/.*"command"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
reason=''
case "$cmd" in
  "npm test"* | "npm run "* | "npm start"*)
    reason='npm scripts run code from package.json: a person confirms each run' ;;
  *curl\ * | *wget\ * | "git push"* | "npm publish"*)
    reason='this command reaches the network' ;;
esac
if [ -n "$reason" ]; then
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"%s"}}\n' "$reason"
fi
exit 0
