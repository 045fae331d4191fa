#!/usr/bin/env bash
# Checks that this checkout computes the same matrices, bit for bit, as saved ones: run it once on
# a known-good checkout with --save DIR, then on the changed one with DIR. It compares the JSON of
# `cara matrix` (A, B, C, error rates and query accuracies as shortest round-trip decimals, so
# equal text is equal bits) for each scenario, with 1 and 2 workers.
# Usage: scripts/same-matrix.sh [--save] DIR [SCENARIO|FILE...]
set -euo pipefail
cd "$(dirname "$0")/.."
save=0
if [[ ${1:-} == --save ]]; then save=1; shift; fi
dir=${1:?usage: scripts/same-matrix.sh [--save] DIR [SCENARIO|FILE...]}
shift
scen=("$@")
[[ ${#scen[@]} -gt 0 ]] || scen=(covcon-d gauss-d circle-d scenario1-far scenario2 electricity weather)
bin=$(mktemp -d)/cara
go build -o "$bin" ./cmd/cara
mkdir -p "$dir"
fail=0
for s in "${scen[@]}"; do
  name=$(basename "$s" .yaml)
  if ((save)); then
    "$bin" matrix "$s" --workers 2 -o "$dir/$name.json" 2>/dev/null
    echo "saved $dir/$name.json"
    continue
  fi
  for w in 1 2; do
    out=$(mktemp)
    "$bin" matrix "$s" --workers "$w" -o "$out" 2>/dev/null
    if cmp -s "$out" "$dir/$name.json"; then
      echo "same      $name (workers $w)"
    else
      echo "DIFFERENT $name (workers $w)"
      fail=1
    fi
    rm -f "$out"
  done
done
exit $fail
