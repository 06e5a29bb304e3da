#!/bin/sh
# PostToolUse hook for Write|Edit: keep an audit trail of edited files.
# Input: the hook event as JSON on stdin; tool_input.file_path names the file.
input=$(cat)
file=$(printf '%s' "$input" | sed -n 's/.*"file_path"[[:space:]]*:[[:space:]]*"\([^"]*\)".*/\1/p')
dir=$(dirname "$0")
printf '%s edited %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${file:-?}" >> "$dir/edits.log"
exit 0
