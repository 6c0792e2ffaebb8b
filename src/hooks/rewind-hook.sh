#!/bin/sh
# Rewind's hook, as an agent runs it before a tool call, a prompt, a stop:
#   sh rewind-hook.sh <agent> <event>      (the payload, JSON, on stdin)
# In the app (REWIND_SOCKET names its channel folder) it hands the payload over and waits
# for the app's answer (the snapshot is taken); without the app, or if the app is gone, it
# runs `rewind hook` (Node), which snapshots by itself. It never blocks or changes a tool
# call for long, and always exits 0. On stdout it prints only what the app gives it for the
# agent to read (at a prompt, a note on a restore; nothing otherwise). A POSIX sh script, not Node:
# the agent waits for it on every step, and a Node start costs 40-130 ms.
agent=$1 event=$2
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac
set -f
standalone() {
  # The payload goes on as it came: stdin, or once that is read, the copy of it (on fd 4:
  # still readable if the app has removed its folder meanwhile).
  if [ "$1" = copy ]; then "$here/../cli.js" hook "$agent" "$event" <&4; rm -f "$req"
  else "$here/../cli.js" hook "$agent" "$event"; fi
  exit 0
}
# Sets $started to when process $1 started, as the app wrote its own beside its pid
# (appMark.ts: field 22 of /proc/<pid>/stat, or `ps -o lstart=`); empty if it is gone or a
# zombie. Builtins only on Linux: the watchdog asks every 0.2 s.
started() {
  started=
  if [ -r "/proc/$1/stat" ]; then
    read -r stat 2>/dev/null <"/proc/$1/stat" || return 0
    # After the command name's last ')': field 3 (the state) on.
    # shellcheck disable=SC2086 # split into its fields on purpose
    set -- ${stat##*) }
    [ $# -ge 20 ] && [ "$1" != Z ] || return 0
    shift 19
    started=$1
  else
    # shellcheck disable=SC2046 # split into its fields on purpose
    set -- $(ps -o lstart= -p "$1" 2>/dev/null)
    started=$*
  fi
}
# Whether the app is still there: its pid is alive and is still the app's, not a later
# process given the same pid (the app killed, its folder left behind).
app_alive() {
  kill -0 "$app" 2>/dev/null || return 1
  started "$app"
  [ -n "$started" ] && [ "$started" = "$start" ]
}
# Runs "$@" in the background on the payload (fd 5) and waits for it: killed (status 137)
# once $budget seconds have passed if it is still running then (a stdin that never ends).
# Its status. The timer sleeps first: where the copy ends at once, as it does for an agent's
# payload, the timer costs the hook one fork and nothing more.
within() {
  "$@" <&5 2>/dev/null &
  job=$!
  ( sleep 0.1; end=$(($(date +%s) + budget)); while kill -0 "$job" 2>/dev/null; do
      [ "$(date +%s)" -le "$end" ] || { kill -9 "$job" 2>/dev/null; exit 0; }
      sleep 0.2
    done ) </dev/null >/dev/null 2>&1 5<&- &
  timer=$!
  wait "$job"
  status=$?
  # Waited for too: until it has run its first line, it holds the hook's stderr, and an agent
  # reads a hook's output until no process holds it.
  kill "$timer" 2>/dev/null
  wait "$timer" 2>/dev/null
  return "$status"
}
# Copies stdin to stdout, at most 64 MB (maxHookPayloadBytes, in 512-byte blocks): a cat,
# which writes what it reads at once (head -c would lose what it buffers when killed); past
# the limit its write fails (the signal ignored: no core dump).
# shellcheck disable=SC2317 # run through within
keep_head() {
  ulimit -f 131072 2>/dev/null
  trap '' XFSZ
  exec cat
}
dir=$REWIND_SOCKET
# The app makes its folder 0700: one that is not this user's own (made by someone else once
# the app is gone, under the name a leftover variable still gives) is never written to. Its
# `pid` is read only if it is a file (a FIFO there would never let the read end).
# shellcheck disable=SC2015 # standalone exits: never both
[ -n "$dir" ] && [ -O "$dir" ] && [ -p "$dir/in" ] && [ -f "$dir/pid" ] || standalone ''
read -r app budget start <"$dir/pid" 2>/dev/null || standalone ''
case $app in '' | *[!0-9]*) standalone '' ;; esac
app_alive || standalone ''
umask 077
set -C
req=$dir/req.$$ ack=$dir/ack.$$
# Opened at once, so that the payload stays readable if the app removes its folder. (The
# folder may be gone at any point: a redirection of `exec` that fails would end this script
# with a status an agent takes for a denied step; through `command` it only fails.)
# shellcheck disable=SC2015 # standalone exits: never both
true >"$req" 2>/dev/null && { command exec 4<"$req"; } 2>/dev/null || standalone ''
# The payload, copied within the hook's budget (the app's, in ms, beside its pid: 10 s, as
# `rewind hook` reads it: an agent writes it at once), at most 64 MB of it
# (maxHookPayloadBytes: the app reads its head); the rest is read through, so that the agent
# writing it never blocks.
case $budget in '' | *[!0-9]*) budget=10000 ;; esac
budget=$(((budget + 999) / 1000))
late=
# Past 64 MB (the copy stopped short of the end), the rest is read through and dropped.
{ within keep_head >>"$req" || { [ $? -ne 137 ] && within cat >/dev/null; }; } 5<&0 || late=' cut'
[ -z "$late" ] || printf "rewind: the payload on the hook's stdin did not end within %s s: read what came\n" "$budget" >&2
# Opened read-write: this open never waits, and the app can open it to answer at once.
# shellcheck disable=SC2015 # standalone exits: never both
mkfifo "$ack" 2>/dev/null && { command exec 3<>"$ack"; } 2>/dev/null || standalone copy
# If the app dies or takes too long, a watchdog answers in its place: after 80 s by the
# clock (the agents give a hook 120, and the snapshot by itself comes after), on the FIFO it
# holds (the app removes its folder as it goes). Its output goes nowhere: an agent reads the
# hook's until every process holding it is gone, the watchdog's last sleep included.
( wend=$(($(date +%s) + 80)); while app_alive && [ "$(date +%s)" -lt "$wend" ]; do sleep 0.2; done; echo gone >&3 ) </dev/null >/dev/null 2>&1 &
watchdog=$!
# One line, written whole (under PIPE_BUF): several hooks at once never mix. Opened
# read-write: the open never waits for a reader (an app going away), the watchdog answers.
printf '%s %s %s%s\n' "$$" "$agent" "$event" "$late" 1<>"$dir/in"
# The answer: `ok` or `ok:<a line for stderr>`, after `out:<a line for stdout>` if the app
# has one (written whole, with it).
read -r answer <&3
out=
case $answer in out:*) out=${answer#out:}; read -r answer <&3 ;; esac
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
exec 3<&-
rm -f "$ack"
case $answer in
  ok) ;;
  ok:*) printf 'rewind: %s\n' "${answer#ok:}" >&2 ;;
  *) standalone copy ;;
esac
# An agent that closed its end gets nothing: the write fails, it never kills the script.
[ -z "$out" ] || { trap '' PIPE; printf '%s\n' "$out" 2>/dev/null; }
rm -f "$req"
exit 0
