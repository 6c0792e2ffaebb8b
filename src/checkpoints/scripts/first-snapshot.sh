# shellcheck shell=sh
# The first snapshot's script, started before the engine knows its arguments (firstScript.ts).
# With the user's own git in the project ("$@": its environment as NAME=VALUE entries for
# `env -i`) it answers the config query on fd 3, then (in a git project) lists the
# project's untracked files as `git status` sees them into $walk, on the core the engine
# leaves idle. Then it reads one line of arguments ('-' for empty); the rest of stdin is the
# commit message. No line: it exits 9, having touched nothing. It never exits before the
# listing is complete.
umask 077
gd=$1 wt=$2 scanstd=$3 scanout=$4 walk=$5 nestedfiles=$6 nestedspecfile=$7 gitoptions=$8 configquery=$9 includefile=${10} sametree='' nestedlist='' nestedspec=''
shift 10
# gitoptions (what keeps the user's programs from running) and configquery are the engine's
# own words, one per line: split on newlines only, never globbed.
set -f
spaces=$IFS
IFS='
'
# shellcheck disable=SC2086 # split on purpose (above)
env -i "$@" git $gitoptions $configquery >&3 2>/dev/null </dev/null
exec 3>&-
walker=''
if [ -n "$walk" ]; then
  # shellcheck disable=SC2086 # split on purpose (above)
  env -i "$@" git $gitoptions ls-files -o -z --exclude-standard >"$walk" 2>/dev/null </dev/null & walker=$!
  trap 'wait "$walker"' EXIT
fi
IFS=$spaces
set +f
read -r prev prevtree ref mode diff list diffto listed nested include || exit 9
[ "$nested" != 1 ] || { nestedlist=$nestedfiles; nestedspec=$nestedspecfile; }
[ "$prev" != - ] || prev=''
[ "$prevtree" != - ] || prevtree=''
[ "$diffto" != - ] || diffto=''
if [ "$include" = 1 ]; then include=$includefile; else include=''; fi
# When the seeded index holds every tracked file (listed=1): the tracked files (no walk),
# then the untracked ones listed ahead (a file created in the few ms between the listing
# and the add waits for the next checkpoint, as one created just after an add -A would).
# Exit 1 with only "...ignored..." means listed files the shadow's own rules leave out
# (heavy ones). Anything else (the listing failed, a listed file went away meanwhile): the
# full walk.
stage() {
  if [ "$listed" != 1 ] || [ -z "$walk" ]; then gadd -A -v; return; fi
  gadd -u -v || return
  wait "$walker" || { gadd -A -v; return; }
  [ -s "$walk" ] || return 0
  exec 4>&1
  err=$(g --literal-pathspecs add -v --pathspec-from-file="$walk" --pathspec-file-nul 2>&1 >&4 </dev/null)
  code=$?
  exec 4>&-
  [ "$code" != 0 ] || return 0
  if [ "$code" = 1 ]; then
    case "$err" in "The following paths are ignored by one of your .gitignore files:"*) return 0 ;; esac
  fi
  gadd -A -v
}
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"
snapshot_steps
