# shellcheck shell=sh
# Work the engine starts detached and never waits for (heavyScan.ts, maintenance.ts):
#   background.sh scan GIT_DIR WORK_TREE RULES OUT   the walk for heavy files, into OUT
#   background.sh gc GIT_DIR MARKER                  git gc --auto; MARKER made if it fails
umask 077
job=$1 gd=$2
case "$job" in
  scan)
    wt=$3
    # shellcheck source=lib.sh
    . "${0%/*}/lib.sh"
    scan "$4" "$5"
    ;;
  gc)
    git --git-dir="$gd" gc --auto --quiet 2>/dev/null || : >"$3"
    ;;
  *)
    echo "background.sh: unknown job $job" >&2
    exit 2
    ;;
esac
