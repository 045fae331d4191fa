#!/usr/bin/env bash
# screens: the player's screenshots from real captures. The real binary runs in a private tmux at a
# given size, keys are pressed once the engine has computed everything, and the screen is captured
# with its colours and rendered to PNG by freeze.
#
#   scripts/screens.sh                      # regenerate the guides' screenshots in docs/
#   scripts/screens.sh shot 120x36 out/x "Right Right z" play covcon-d
#   TERM_NAME=xterm NO_COLOR=1 scripts/screens.sh shot 80x24 out/mono "End" play scenario2
#
# Needs tmux and freeze (go install github.com/charmbracelet/freeze@latest). freeze's own PNG
# renderer has no braille glyphs (the cumulative-cost chart); with rsvg-convert (apt-get install
# librsvg2-bin fonts-jetbrains-mono, or RSVG_CONVERT=path) the SVG is rendered with fallback fonts
# instead, each character pinned to its cell by scripts/svgcells so the fallback's other widths do
# not shift the columns.
set -euo pipefail
cd "$(dirname "$0")/.."

need() { command -v "$1" >/dev/null || { echo "screens: $1 is needed ($2)" >&2; exit 1; }; }
need tmux "apt-get install tmux"
freeze=$(command -v freeze || echo "$(go env GOPATH)/bin/freeze")
[[ -x $freeze ]] || { echo "screens: freeze is needed (go install github.com/charmbracelet/freeze@latest)" >&2; exit 1; }
rsvg=${RSVG_CONVERT:-$(command -v rsvg-convert || true)}
[[ -n $rsvg ]] || echo "screens: no rsvg-convert; braille will show as boxes (apt-get install librsvg2-bin, or RSVG_CONVERT=path)" >&2

bin=${CARA:-}
if [[ -z $bin ]]; then
  bin=$(mktemp -d)/cara
  go build -o "$bin" ./cmd/cara
fi

# shot SIZE OUT "KEYS" ARGS...: run cara ARGS at SIZE, wait until the screen says $WAIT_FOR
# (default: the engine has computed all), press KEYS (tmux key names; wait:N sleeps N seconds),
# save OUT.txt, OUT.ansi and OUT.png.
shot() {
  local size=$1 out=$2 keys=$3; shift 3
  local w=${size%x*} h=${size#*x} sock=screens-$$-$RANDOM
  local env_pre="TERM=${TERM_NAME:-tmux-256color}"
  [[ -n ${NO_COLOR:-} ]] && env_pre+=" NO_COLOR=1"
  mkdir -p "$(dirname "$out")"
  tmux -L "$sock" -f /dev/null new-session -d -x "$w" -y "$h" "env $env_pre $(printf '%q ' "$bin" "$@"); sleep 600"
  for _ in $(seq 1 600); do
    tmux -L "$sock" capture-pane -p | grep -q "${WAIT_FOR:-computed all}" && break
    sleep 0.2
  done
  for k in $keys; do
    case $k in
      wait:*) sleep "${k#wait:}" ;; # a new run computing (the command line's data change)
      *) tmux -L "$sock" send-keys "$k"; sleep 0.15 ;;
    esac
  done
  sleep 0.8
  tmux -L "$sock" capture-pane -p >"$out.txt"
  # freeze ignores "default foreground" (39) and "default background" (49), which tmux writes
  # whenever a colour ends: the colour would run on. They become freeze's own defaults.
  tmux -L "$sock" capture-pane -e -p |
    sed -e 's/\x1b\[39m/\x1b[38;2;197;200;198m/g' -e 's/\x1b\[49m/\x1b[48;2;23;23;23m/g' >"$out.ansi"
  tmux -L "$sock" kill-server 2>/dev/null || true
  if [[ -n $rsvg ]]; then
    "$freeze" -l ansi -o "$out.svg" --font.size 14 <"$out.ansi" >/dev/null
    go run ./scripts/svgcells <"$out.svg" >"$out.cells.svg"
    "$rsvg" -z 2 -o "$out.png" "$out.cells.svg"
    rm -f "$out.svg" "$out.cells.svg"
  else
    "$freeze" -l ansi -o "$out.png" --font.size 14 <"$out.ansi" >/dev/null
  fi
  echo "$out.png ($size)"
}

repeat() { local n=$1 k=$2 out=""; for _ in $(seq 1 "$n"); do out+="$k "; done; echo "$out"; }

if [[ ${1:-} == shot ]]; then
  shift
  shot "$@"
  exit
fi

# The guides' screenshots (docs/getting-started.md, docs/workshop.md).
shot 160x48 docs/player-covcon-d "$(repeat 38 Right)" play covcon-d
shot 120x36 docs/player-scenario2 "End" play scenario2
shot 120x36 docs/player-zoom "$(repeat 38 Right) z" play covcon-d
shot 120x36 docs/player-whatif "End w a W" play covcon-d
# The command line: R as a what-if, then the data changed (a new run), beside the run before.
shot 120x36 docs/player-run-whatif ":retrain_cost=40 Enter :data.noise=0.2 Enter wait:12 End W" play covcon-d --trees 10
# The tour to its quiz at 27 (a space on the way goes straight to the stop), answered KEEP.
shot 120x36 docs/player-quiz "space space space space space space k" play covcon-d --tour
rm -f docs/*.txt docs/*.ansi
