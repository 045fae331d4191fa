#!/usr/bin/env bash
# Checks that this checkout computes the same matrices, bit for bit, as saved ones: run it once on
# a known-good checkout with --save DIR, then on the changed one with DIR. It compares gamma, A, B,
# C, the error rates and the query accuracies of `cara matrix` JSON (shortest round-trip decimals:
# the same number is the same bits; the sign of a zero is compared too) for each scenario, with 1
# and 2 workers. Other keys may come and go.
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
    if python3 - "$out" "$dir/$name.json" <<'PY'
import json, math, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
def same(x, y):
    if isinstance(x, list):
        return isinstance(y, list) and len(x) == len(y) and all(same(u, v) for u, v in zip(x, y))
    if isinstance(x, float) and isinstance(y, float):
        return x == y and math.copysign(1, x) == math.copysign(1, y)
    return x == y
sys.exit(0 if all(same(a.get(k), b.get(k)) for k in ["gamma", "A", "B", "C", "error_rate", "query_accuracy"]) else 1)
PY
    then
      echo "same      $name (workers $w)"
    else
      echo "DIFFERENT $name (workers $w)"
      fail=1
    fi
    rm -f "$out"
  done
done
exit $fail
