# shellcheck shell=sh
# What every snapshot script shares: git on the shadow repo, the nested-repository
# handling, the walk for heavy files, and the snapshot's steps after staging. Sourced by
# snapshot.sh, first-snapshot.sh and background.sh, which set gd (the shadow git dir) and
# wt (the project) first; the two snapshot scripts also define stage() and the variables
# snapshot_steps reads (see snapshot.sh), include among them.

g() { git --git-dir="$gd" --work-tree="$wt" "$@"; }

# A diff of trees alone (--raw: names, modes, ids): git reads the index for every diff-tree,
# though such a diff needs none of it (at 250,000 files the longest step of a snapshot
# after write-tree), so it is pointed at one that does not exist (ShadowRepo.treeDiff too).
treediff() { GIT_INDEX_FILE="$gd/no-index-for-tree-diffs" git --git-dir="$gd" --work-tree="$wt" diff-tree "$@"; }

# Nested repositories and submodules already in the index (nestedlist: their paths,
# nestedspec: the same as exclude pathspecs, both NUL-separated; empty: none): an add
# asks each one for its status, a git run inside it that runs ITS fsmonitor and filters.
# Their gitlinks are set from their HEAD instead (update-index reads it, runs nothing
# there), and the add leaves them out. Should that fail, the plain add, as before.
links() {
  [ -n "$nestedlist" ] || return 0
  g update-index --add --remove -z --stdin <"$nestedlist" && return 0
  nestedlist=''
  nestedspec=''
}

gadd() {
  if [ -n "$nestedspec" ]; then g add "$@" --pathspec-from-file="$nestedspec" --pathspec-file-nul </dev/null
  else g add "$@" </dev/null; fi
}

# The walk for heavy files: untracked files the project's own rules do not ignore ($1:
# those rules), and `check-ignore -v` saying which shadow rule excludes each one, into $2.
scan() {
  g ls-files -o -z --exclude-per-directory=.gitignore --exclude-from="$1" </dev/null |
    g check-ignore -z --stdin -v --non-matching >"$2.$$"
  mv "$2.$$" "$2"
}

# Section markers start with three NUL bytes: no file name holds a NUL, and no -z output
# has two in a row, so nothing a file name or git prints can forge one.
section() { printf '\000\000\000%s\000' "$1"; }

# The checkpoint's ref.
refs() {
  g update-ref "$1" "$2" </dev/null
}

# One snapshot after the arguments are known: stage, write the tree, commit and ref it (by
# mode), print what changed and the result in sections. Exit codes say which step failed
# (snapshotScript.ts: scriptSteps).
snapshot_steps() {
  # Nothing in a store is for other users (snapshots hold the project's secrets).
  umask 077
  # The first snapshot of a plain folder walks for heavy files beside the add: scanstd,
  # scanout (see firstScript.ts).
  scanner=''
  if [ -n "$scanout" ]; then scan "$scanstd" "$scanout" >/dev/null 2>&1 & scanner=$!; fi
  links
  stage || exit 10
  # Ignored files checkpoint_include adds (include: their list; empty: none). `add -v`'s
  # format (--verbose), counted as staged; --remove: one gone meanwhile is simply absent.
  if [ -n "$include" ]; then g update-index --add --remove --verbose -z --stdin <"$include" || exit 10; fi
  # A stage without the index (snapshot.sh) made the commit and knows its tree.
  [ -n "${nocommit-}" ] || tree=$(g write-tree </dev/null) || exit 11
  # Also "the same" (changed mode only): the files as a restore left them, though the newest
  # checkpoint is its redo point: nothing was done since.
  same=''
  if [ "$tree" = "$prevtree" ] || { [ "$mode" = changed ] && [ -n "$sametree" ] && [ "$tree" = "$sametree" ]; }; then same=1; fi
  # What changed, and the diff to the target (diffto: a restore's redo point), run beside the
  # commit and its ref (git processes less to wait for): until they are waited for, nothing
  # else prints (commit-tree's output is captured, update-ref says nothing but errors), so
  # their records reach stdout whole. The sections are told apart by name, in any order.
  differ=''
  todiff=''
  [ "$diff" = 1 ] && [ -z "$same" ] && todiff=1
  if [ -n "$todiff" ] || [ -n "$diffto" ]; then
    diffs &
    differ=$!
  fi
  if [ -n "$same" ]; then
    [ "$mode" = tree ] || [ "$mode" = changed ] || refs "$ref" "$prev" || fail 13
    result="same $tree -"
  elif [ "$mode" = tree ]; then
    result="tree $tree -"
  else
    if [ -n "${nocommit-}" ]; then commit=$nocommit
    elif [ -n "$prev" ]; then commit=$(g commit-tree -p "$prev" "$tree") || fail 12
    else commit=$(g commit-tree "$tree") || fail 12; fi
    refs "$ref" "$commit" || fail 13
    result="new $tree $commit"
  fi
  [ -z "$differ" ] || wait "$differ"
  section result
  printf '%s\n' "$result"
  [ -z "${nocommit-}" ] || section noindex
  if [ "$list" = 1 ]; then
    section list
    g ls-tree -r -l -z --full-tree "$tree" </dev/null || exit 14
  fi
  [ -z "$scanner" ] || wait "$scanner"
  { [ -n "$same" ] && [ "$mode" = changed ]; } || background_scan
}

# The walk for heavy files after a snapshot (bgrules, bgout, bgstamp; set by snapshot.sh),
# started here rather than by Node (a spawn there is the process's own work, ~4 ms of CPU at
# the end of each `rewind snapshot`). Detached from the script's output (the engine waits
# for it to close), its pid in bgstamp (heavyScan.ts: one at a time), and without the owner
# mark: it outlives its starter on purpose (processOwner.ts).
background_scan() {
  [ -n "${bgstamp-}" ] || return 0
  (
    unset REWIND_OWNER
    exec sh "${0%/*}/background.sh" scan "$gd" "$wt" "$bgrules" "$bgout" </dev/null >/dev/null 2>&1
  ) &
  printf '%s' "$!" >"$bgstamp" 2>/dev/null || :
}

# The diffs snapshot_steps runs beside the commit: what changed since prevtree (todiff), and
# from the new tree to diffto; a diff that fails is followed by a `failed` section.
diffs() {
  if [ -n "$todiff" ]; then
    section diff
    from=$prevtree
    [ -n "$from" ] || from=4b825dc642cb6eb9a060e54bf8d69288fbee4904
    treediff -r -z --no-renames --raw "$from" "$tree" </dev/null || section failed
  fi
  if [ -n "$diffto" ]; then
    section target
    treediff -r -z --no-renames --raw "$tree" "$diffto" </dev/null || section failed
  fi
}

# A failed step exits once the diff is done (no git of ours left running after the script).
fail() {
  [ -z "$differ" ] || wait "$differ"
  exit "$1"
}
