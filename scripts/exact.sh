#!/usr/bin/env bash
# Byte-for-byte comparison of two builds' simulator outputs (issue 22, issue 25: a speed-up or a
# refactor must not change what the simulator prints or writes).
#
#   scripts/exact.sh OLD_BINARY NEW_BINARY [RUNS]
#
# For each shipped encounter and each ruleset: `sim --out` (runs.csv and summary.json, RUNS runs,
# default 200) and `--replay-run k` for runs 0-3 (the full combat log). Prints each difference and
# exits 1 if there is any. (The golden logs and replays are checked by `cargo test`.)
set -euo pipefail
old=$1 new=$2 runs=${3:-200}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
same() { # label file_a file_b
    if ! cmp -s "$2" "$3"; then
        echo "DIFFERENT: $1"
        diff "$2" "$3" | head -5
        fail=1
    fi
}
for enc in assets/encounters/*.ron; do
    name=$(basename "$enc" .ron)
    for bin in old new; do
        exe=${!bin}
        "$exe" sim "$enc" --ruleset all --runs "$runs" --jobs 1 --out "$work/$bin-$name" >/dev/null
        for rs in homebrew-d20 pf1e pf2e segments; do
            for k in 0 1 2 3; do
                "$exe" sim "$enc" --ruleset "$rs" --replay-run "$k" >"$work/$bin-$name-$rs-$k.log"
            done
        done
    done
    # summary.json records its inputs' hashes and the runs; the timing fields, if any, differ.
    same "$name runs.csv" "$work/old-$name/runs.csv" "$work/new-$name/runs.csv"
    same "$name summary.json" "$work/old-$name/summary.json" "$work/new-$name/summary.json"
    for rs in homebrew-d20 pf1e pf2e segments; do
        for k in 0 1 2 3; do
            same "$name $rs replay-run $k" "$work/old-$name-$rs-$k.log" "$work/new-$name-$rs-$k.log"
        done
    done
done
if [ "$fail" = 0 ]; then
    echo "identical: runs.csv, summary.json and replay logs of $(ls assets/encounters/*.ron | wc -l) encounters x 4 rulesets, $runs runs each"
fi
exit "$fail"
