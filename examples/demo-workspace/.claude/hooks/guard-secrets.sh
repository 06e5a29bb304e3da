#!/bin/sh
# PreToolUse hook for Read: keep secrets files out of the model's context.
# It is slow on purpose (a stand-in for a real secret scanner), so you can watch the
# spinner in the Hook Runs view while it works.
# Prints a PreToolUse decision as JSON on stdout: deny for .env / key files, else allow.
input=$(cat)
file=$(printf '%s' "$input" | sed -n 's/.*"file_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
sleep 2
# The e2e tests hold the scan open while they look at the spinner: they name a file in
# HOOKWISE_DEMO_HOLD and remove it when done (at most 60 s). Unset, nothing waits.
if [ -n "${HOOKWISE_DEMO_HOLD:-}" ]; then
  i=0
  while [ -e "$HOOKWISE_DEMO_HOLD" ] && [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
fi
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
