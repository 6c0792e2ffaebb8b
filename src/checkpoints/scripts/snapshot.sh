# shellcheck shell=sh
# One snapshot in one spawned process (snapshotScript.ts): every git process Node starts
# costs ~7 ms before it does anything, so the plumbing steps run from a single sh. The
# commit message is on stdin.
gd=$1 wt=$2 prev=$3 prevtree=$4 ref=$5 mode=$6 diff=$7 list=$8 diffto=$9 sametree=${10} robust=${11} nestedlist=${12} nestedspec=${13} scope=${14} gone=${15} include=${16} files=${17} bgrules=${18} bgout=${19} bgstamp=${20} nohead=${21} noblobs=${22} nomodes=${23} noids=${24} nocommit='' scanstd='' scanout=''
# --ignore-errors: a file git cannot add (unreadable, a FIFO where a file was) is reported and
# the others are staged; the engine leaves such files out and runs again. A file that
# vanishes mid-walk makes add die ("unable to stat"): then the engine runs again with
# `robust` (a list file): tracked files by add -u, untracked ones listed first and staged by
# update-index, which takes a listed file that is gone for one that is simply absent.
# `scope` (the app knows which paths changed since the last snapshot, scope.ts): a file of
# the pathspecs of those that exist, the add walks only those (`-`: none); `gone`: a file of
# those that are gone, out of the index (rm --cached, which takes a path it never held).
# `files`: when every path of the scope that exists is a plain file (scope.ts), a file of
# those paths: staged by update-index, which reads no more than the index and those files
# (add also walks for untracked files and matches every index entry: about 100 ms more at
# 250,000 files), unless an ignore rule names one of them (check-ignore --no-index exits 1
# for none; a rule on a tracked file is add's to judge) or update-index fails (a file that
# changed kind or cannot be read): then add, as for any scope.
# `include`: a file of the ignored files checkpoint_include adds (includeFiles.ts; empty: none).
# `nohead`, `noblobs`, `nomodes`, `noids` (scope.ts writeWithoutIndex): a step of regular
# files staged without the shadow index, whose every read (update-index, then write-tree)
# costs what the whole index holds (at 250,000 files, ~150 ms each): the files hashed into
# the store by `hash-object -w` (their bytes, as add stores them), their `M`
# lines added to the fast-import head (the commit, its parent the last checkpoint, the gone
# paths deleted), one fast-import; an ignore rule naming one of them, or any failure: exit
# 15 (the engine walks the whole tree instead). The index stays behind on those paths: the
# engine keeps them (store.indexBehind) and brings the index up to them (snapshot.ts
# caughtUpByRebuilding) before anything else uses it.
# `bgrules`, `bgout`, `bgstamp`: once the checkpoint is written, the background walk for heavy
# files starts with these (heavyScan.ts; empty: none), see background_scan in lib.sh.
stage() {
  if [ -n "$nohead" ]; then
    if [ -s "$files" ]; then
      g check-ignore --no-index -q -z --stdin <"$files"
      [ $? -eq 1 ] || exit 15
    fi
    without_index || exit 15
    return 0
  fi
  if [ -n "$gone" ]; then g rm --cached -r -q --ignore-unmatch --pathspec-from-file="$gone" --pathspec-file-nul </dev/null || return; fi
  if [ "$scope" = - ]; then return 0; fi
  if [ -n "$files" ]; then
    g check-ignore --no-index -q -z --stdin <"$files"
    if [ $? -eq 1 ] && g update-index --add --remove --replace --verbose -z --stdin <"$files" 2>/dev/null; then return 0; fi
  fi
  if [ -n "$scope" ]; then g add -A -v --ignore-errors --pathspec-from-file="$scope" --pathspec-file-nul </dev/null; return; fi
  if [ -z "$robust" ]; then gadd -A -v --ignore-errors; return; fi
  gadd -u -v --ignore-errors || return
  g ls-files -z -o --exclude-standard </dev/null >"$robust" || return
  g update-index --add --remove -z --stdin <"$robust"
}
# The commit is made on refs/rewind/step, which the same fast-import deletes again (a ref
# left there would keep a chain retention dropped reachable); its id comes from the marks.
without_index() {
  g hash-object -w --stdin-paths <"$noblobs" >"$noids" || return
  {
    cat "$nohead" && paste -d ' ' "$nomodes" "$noids" "$noblobs" | sed 's/^/M /'
    printf 'reset refs/rewind/step\nfrom 0000000000000000000000000000000000000000\n'
  } | g fast-import --quiet --force --date-format=now --export-marks="$noids.marks" || return
  nocommit=$(sed -n 's/^:1 //p' "$noids.marks")
  [ -n "$nocommit" ] && tree=$(g rev-parse --verify -q "$nocommit^{tree}" </dev/null)
}
# shellcheck source=lib.sh
. "${0%/*}/lib.sh"
snapshot_steps
