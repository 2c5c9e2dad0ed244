#!/usr/bin/env bash
# Restore verl's own example scripts (the issue-31 development corpus) into a gitignored folder.
#
# The corpus is verl's examples/ folder at the head of its 0.9.0 release branch (release/v0.9.0; the 0.9.1 oracle
# is installed from the package): every file under examples/, so the scripts, what they source and the config
# folders they pass to --config-path are all there, laid out as in verl's repository. It is kept out of this
# repository: the scripts are verl's, not ours.
#
# No commit of the mirror is the 0.9.1 release: verl has no v0.9.1 tag or version bump, and none of the 0.9.1
# wheel's config files is a blob anywhere in the history. The wheel was cut after main's newest commit here
# (1dda039b9c6311889a9c9a26040677e1254814f9, 2026-08-22): it lacks the mindspeed engine that release/v0.9.0 still
# has and main removed (#7374), and has keys main does not (trainer.checkpoint_callback_class). main's examples are
# the newer corpus: VERL_EXAMPLES_COMMIT=1dda039b9c6311889a9c9a26040677e1254814f9 restores them beside this one
# (scripts/verl_examples_agreement.py --commit judges them).
#
#   [VERL_EXAMPLES_COMMIT=C] scripts/restore_verl_examples.sh [GIT_DIR]
#
# GIT_DIR is a clone (or bare mirror) of https://github.com/verl-project/verl that has the commit; default:
# $VERL_GIT_DIR, else /work/.mirror/verl-project+verl/repo. Without one it says how to get one and exits 0.
# The files go to .verl-examples/<commit>/examples/ at the repository root (read by
# benchmarks/verl_examples_agreement.py and tests/conformance/test_verl_examples.py).
set -euo pipefail

COMMIT=${VERL_EXAMPLES_COMMIT:-88512193628b95f24916c0898d51a8a877d09203}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
git_dir=${1:-${VERL_GIT_DIR:-/work/.mirror/verl-project+verl/repo}}
dest="$root/.verl-examples/$COMMIT"

if ! git --git-dir="$git_dir" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    echo "note: no verl repository with commit $COMMIT at '$git_dir'; nothing restored."
    echo "      get one with: git clone https://github.com/verl-project/verl /tmp/verl &&"
    echo "      scripts/restore_verl_examples.sh /tmp/verl/.git"
    exit 0
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
git --git-dir="$git_dir" archive --format=tar "$COMMIT" examples | tar -x -C "$dest.tmp"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
count=$(find "$dest/examples" -name '*.sh' | wc -l)
echo "restored verl examples at $COMMIT: $count scripts under ${dest#"$root"/}/examples"
