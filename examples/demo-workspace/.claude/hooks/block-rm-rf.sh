#!/bin/sh
# PreToolUse hook for Bash: refuse recursive forced deletes.
# Input: the hook event as JSON on stdin (tool_input.command holds the shell command).
# Exit 2 = block; what we print on stderr is the reason the agent sees.
input=$(cat)
if printf '%s' "$input" | grep -Eq 'rm[[:space:]]+(-[[:alnum:]]*r[[:alnum:]]*f|-[[:alnum:]]*f[[:alnum:]]*r|-r[[:space:]]+-f|-f[[:space:]]+-r)'; then
  echo "Blocked by .claude/hooks/block-rm-rf.sh: 'rm -rf' is not allowed in this project. Delete specific files instead." >&2
  exit 2
fi
exit 0
