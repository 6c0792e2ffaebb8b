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
  # The payload goes on as it came: stdin, or once that is read, the copy of it (on fd 4:
  # still readable if the app has removed its folder meanwhile).
  if [ "$1" = copy ]; then "$here/../cli.js" hook "$agent" "$event" <&4; rm -f "$req"
  else "$here/../cli.js" hook "$agent" "$event"; fi
  exit 0
}
dir=$REWIND_SOCKET
# The app makes its folder 0700: one that is not this user's own (made by someone else once
# the app is gone, under the name a leftover variable still gives) is never written to.
[ -n "$dir" ] && [ -O "$dir" ] && [ -p "$dir/in" ] && [ -r "$dir/pid" ] || standalone ''
read -r app <"$dir/pid" 2>/dev/null || standalone ''
kill -0 "$app" 2>/dev/null || standalone ''
umask 077
set -C
req=$dir/req.$$ ack=$dir/ack.$$
cat >"$req" 2>/dev/null || { rm -f "$req"; standalone ''; }
exec 4<"$req"
mkfifo "$ack" 2>/dev/null || standalone copy
# Opened read-write: this open never waits, and the app can open it to answer at once.
exec 3<>"$ack"
# If the app dies or takes too long, a watchdog answers in its place: after 80 s by the
# clock (the agents give a hook 120, and the snapshot by itself comes after), on the FIFO it
# holds (the app removes its folder as it goes). Its output goes nowhere: an agent reads the
# hook's until every process holding it is gone, the watchdog's last sleep included.
( end=$(($(date +%s) + 80)); while kill -0 "$app" 2>/dev/null && [ "$(date +%s)" -lt "$end" ]; do sleep 0.2; done; echo gone >&3 ) </dev/null >/dev/null 2>&1 &
watchdog=$!
# One line, written whole (under PIPE_BUF): several hooks at once never mix. Opened
# read-write: the open never waits for a reader (an app going away), the watchdog answers.
printf '%s %s %s\n' "$$" "$agent" "$event" 1<>"$dir/in"
read -r answer <&3
kill "$watchdog" 2>/dev/null
exec 3<&-
rm -f "$ack"
case $answer in
  ok) ;;
  ok:*) printf 'rewind: %s\n' "${answer#ok:}" >&2 ;;
  *) standalone copy ;;
esac
rm -f "$req"
exit 0
