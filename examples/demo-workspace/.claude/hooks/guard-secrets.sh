#!/bin/sh
# PreToolUse hook for Read: keep secrets files out of the model's context.
# It is slow on purpose (a stand-in for a real secret scanner), so you can watch the
# spinner in the Hook Runs view while it works.
# Prints a PreToolUse decision as JSON on stdout: deny for .env / key files, else allow.
input=$(cat)
file=$(printf '%s' "$input" | sed -n 's/.*"file_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
sleep 2
case "$file" in
  *.env | *.env.* | *.pem | *id_rsa*)
    decision=deny
    reason="$file may hold secrets: reading it is not allowed in this project" ;;
  *)
    decision=allow
    reason='no secrets file' ;;
esac
printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"%s","permissionDecisionReason":"%s"}}\n' "$decision" "$reason"
exit 0
