#!/usr/bin/env bash
# End to end: the real binary in tmux at 100x32 on covcon-d with a small forest; step five batches,
# raise R, and check the captured screen's text.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v tmux >/dev/null; then
  apt-get update -qq >/dev/null && apt-get install -y -qq tmux >/dev/null
fi
bin=$(mktemp -d)/cara
go build -o "$bin" ./cmd/cara
sock=cara-e2e-$$
tmux -L "$sock" kill-server 2>/dev/null || true
trap 'tmux -L "$sock" kill-server 2>/dev/null || true' EXIT
tmux -L "$sock" new-session -d -x 100 -y 32 "$bin play covcon-d --trees 10 --seed 1"
screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # wait_for TEXT SECONDS
  for _ in $(seq 1 $(($2 * 10))); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "e2e: '$1' did not appear; screen:"; screen; return 1
}
wait_for "computed all" 60
for _ in 1 2 3 4 5; do tmux -L "$sock" send-keys l; sleep 0.3; done
wait_for "batch 5/" 20
before=$(screen | grep -o ' R [0-9][0-9.]*' | head -1)
tmux -L "$sock" send-keys ']'
sleep 0.5
after=$(screen | grep -o ' R [0-9][0-9.]*' | head -1)
if [[ -z $before || $before == "$after" ]]; then
  echo "e2e: R did not change after ']' (before '$before', after '$after')"; screen; exit 1
fi
# The command line: a replayable change becomes a what-if named on the status line.
tmux -L "$sock" send-keys ':' 'retrain_cost=7' Enter
wait_for "what-if: retrain_cost=7" 20
tmux -L "$sock" send-keys q
sleep 0.5
if "$bin" play covcon-d </dev/null >/dev/null 2>/tmp/cara-e2e-err; then
  echo "e2e: play without a terminal did not fail"; exit 1
fi
grep -q "cara run" /tmp/cara-e2e-err || { echo "e2e: no pointer to cara run: $(cat /tmp/cara-e2e-err)"; exit 1; }
echo "e2e: ok (stepped to batch 5, $before -> $after; :retrain_cost=7 shown; no terminal: $(cat /tmp/cara-e2e-err))"
