#!/usr/bin/env bash
# Checks the wire contract (proto/) for breaking changes with buf's FILE rules (buf.yaml)
# against a base commit, chosen so that it works in a fresh `git clone`, on a branch, in a
# worktree and on main itself:
#   1. $ARENA_BUF_AGAINST, if set (any commit-ish: a release tag, origin/main, a hash);
#   2. on a branch: the merge-base of HEAD with origin/main (else a local main), i.e. main as
#      it was when the branch left it, so the check judges exactly this branch's changes;
#   3. on main itself (the merge-base is HEAD): HEAD~1, so every commit to main is judged
#      against the one before it.
# Why not buf's own git input ('.git#branch=main'): a fresh clone checked out on a detached
# HEAD or another branch has no local branch main, and in a git worktree .git is a file, not
# a repository buf can clone. Instead the base's buf.yaml and proto/ are exported with
# `git archive` into a temporary folder and buf compares against that folder, which needs only
# the base commit's objects. A clone without that history (a shallow clone of one commit)
# fails here with the fix, rather than passing without a check.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/buf.sh # the pinned, prebuilt buf

base="${ARENA_BUF_AGAINST:-}"
how="ARENA_BUF_AGAINST"
if [ -z "$base" ]; then
  for main in origin/main main; do
    if git rev-parse --verify --quiet "$main^{commit}" >/dev/null; then
      base=$(git merge-base HEAD "$main" || true)
      how="merge-base with $main"
      break
    fi
  done
  if [ -z "$base" ]; then
    base=HEAD~1
    how="the previous commit (no origin/main or main in this clone)"
  elif [ "$base" = "$(git rev-parse HEAD)" ]; then
    base=HEAD~1
    how="the previous commit (HEAD is main)"
  fi
fi
if ! commit=$(git rev-parse --verify --quiet "$base^{commit}"); then
  echo "buf breaking: no base commit $base ($how) in this clone: fetch the history (git fetch --unshallow origin main) or set ARENA_BUF_AGAINST to a commit, tag or branch" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$commit" buf.yaml proto | tar -x -C "$tmp"
echo "buf breaking against $(git rev-parse --short "$commit") ($how)"
buf breaking --against "$tmp"
