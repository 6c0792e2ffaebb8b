#!/bin/sh
# Rewind's hook, as an agent runs it before a tool call, a prompt, a stop:
#   sh rewind-hook.sh <agent> <event>      (the payload, JSON, on stdin)
# In the app (REWIND_SOCKET names its channel folder) it hands the payload over and waits
# for the app's answer (the snapshot is taken); without the app, or if the app is gone, it
# runs `rewind hook` (Node), which snapshots by itself. It never blocks or changes a tool
# call for long, prints nothing on stdout, and always exits 0. A POSIX sh script, not Node:
# the agent waits for it on every step, and a Node start costs 40-130 ms.
agent=$1 event=$2
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
standalone() {
  # The payload goes on as it came (stdin, or the copy made of it).
  if [ -n "$1" ]; then "$here/../cli.js" hook "$agent" "$event" <"$1"; rm -f "$1"
  else "$here/../cli.js" hook "$agent" "$event"; fi
  exit 0
}
dir=$REWIND_SOCKET
[ -n "$dir" ] && [ -p "$dir/in" ] && [ -r "$dir/pid" ] || standalone ''
read -r app <"$dir/pid" 2>/dev/null || standalone ''
kill -0 "$app" 2>/dev/null || standalone ''
umask 077
req=$dir/req.$$ ack=$dir/ack.$$
cat >"$req" 2>/dev/null || { rm -f "$req"; standalone ''; }
mkfifo "$ack" 2>/dev/null || standalone "$req"
# Opened read-write: this open never waits, and the app can open it to answer at once.
exec 3<>"$ack"
# If the app dies or takes too long, a watchdog answers in its place.
( n=0; while kill -0 "$app" 2>/dev/null && [ "$n" -lt 600 ]; do sleep 0.2; n=$((n + 1)); done; echo gone >"$ack" ) &
watchdog=$!
# One line, written whole (under PIPE_BUF): several hooks at once never mix.
printf '%s %s %s\n' "$$" "$agent" "$event" >"$dir/in"
read -r answer <&3
kill "$watchdog" 2>/dev/null
exec 3<&-
rm -f "$ack"
case $answer in
  ok) ;;
  ok:*) printf 'rewind: %s\n' "${answer#ok:}" >&2 ;;
  *) [ -f "$req" ] && standalone "$req"; standalone '' ;;
esac
rm -f "$req"
exit 0
