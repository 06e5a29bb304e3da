#!/bin/sh
# Stop hook: note that the agent finished a turn. Exit 0 lets it stop
# (exit 2 with a reason on stderr would make it continue).
cat > /dev/null
dir=$(dirname "$0")
printf '%s agent stopped\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$dir/edits.log"
exit 0
