#!/usr/bin/env bash
# Runs the paper's pipeline twice on this machine, back to back, once with cara and once with the
# paper's NumPy/scikit-learn stack (../shared/bench/pyref_pipeline.py), on the same work, and
# prints the ratio per stage (python seconds / cara seconds: above 1 means cara is faster) under a
# line that says which machine, how loaded, and when. Quote the ratios of one run: the machine may
# be shared, and both sides feel the same load only when they run back to back.
# Usage: scripts/bench-vs-python.sh [paper|small]
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-paper}
pyref=${PYREF:-../shared/bench/pyref_pipeline.py}
[[ -f $pyref ]] || { echo "bench: $pyref not found (set PYREF to the reference script)" >&2; exit 1; }
if ! /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
  echo "bench: installing python3-sklearn with apt-get" >&2
  apt-get update -qq && apt-get install -y -qq python3-sklearn >/dev/null
fi
case $size in
  paper) args=(--batches 100 --size 1000 --queries 100 --trees 100 --offline 25) ;;
  small) args=(--batches 30 --size 500 --queries 50 --trees 20 --offline 8) ;;
  *) echo "bench: size must be paper or small" >&2; exit 2 ;;
esac
bin=$(mktemp -d)/cara
go build -o "$bin" ./cmd/cara
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
started=$(date -u '+%Y-%m-%d %H:%M UTC')
echo "cara: cara bench --size $size" >&2
go_json=$("$bin" bench --size "$size")
echo "python: $pyref ${args[*]}" >&2
py_json=$(/usr/bin/python3 "$pyref" "${args[@]}")
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || echo unknown)
/usr/bin/python3 - "$go_json" "$py_json" "$size" "$started" "$cpu" "$load_before" "$load_after" <<'PY'
import json, sys
import sklearn
g, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
size, started, cpu, lb, la = sys.argv[3:8]
gm, pm = g["machine"], p["machine"]
print(f"machine: {cpu}, {gm['cpus']} CPUs (cara GOMAXPROCS {gm['gomaxprocs']}), load {lb} before, {la} after; "
      f"{gm['go']}; python {pm['python']}, numpy {pm['numpy']}, scikit-learn {sklearn.__version__}; {started}; size {size}")
print(f"{'stage':<14}{'python s':>10}{'cara s':>10}{'ratio':>9}")
for k in ["generate_s", "fit_s", "predict_s", "kernel_s", "algorithms_s", "total_s"]:
    ratio = p[k] / g[k] if g[k] > 0 else float("inf")
    print(f"{k:<14}{p[k]:>10.3f}{g[k]:>10.3f}{ratio:>8.1f}x")
print(f"cara peak memory: {g.get('peak_rss_mb', float('nan')):.0f} MB; oracle cost cara {g['oracle_cost']:.4f}, python {p['oracle_cost']:.4f}")
if "predict_floor_s" in g:
    print(f"cara predict: {g['predict_ns_per_point']:.1f} ns a point, {g['predict_floor_ns_per_point']:.1f} with every region decided "
          f"(the floor of the box lookup), {g['predict_s'] / g['predict_floor_s']:.2f}x; cara CPU {g['cpu_s']:.2f} s")
PY
