#!/usr/bin/env bash
# gif: record the README's GIF (docs/cara.gif) from its tape, docs/cara.tape.
#
#   scripts/gif.sh                      # docs/cara.tape -> docs/cara.gif
#   scripts/gif.sh my.tape              # any tape; its Output names the GIF
#   FRAMES=out/frames scripts/gif.sh    # keep the fallback's screens and frames, to look at
#
# With ttyd on the PATH it runs vhs (go install github.com/charmbracelet/vhs@v0.10.0; vhs needs
# ttyd and ffmpeg). Without ttyd (not a Debian package of bookworm or trixie) it plays the same tape
# with scripts/tapegif: tmux, freeze (go install github.com/charmbracelet/freeze@latest) and ffmpeg
# (apt-get install tmux ffmpeg); librsvg2-bin and fonts-jetbrains-mono draw the chart's braille.
# Either way cara is built from this checkout and put first on the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
tape=${1:-docs/cara.tape}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/cara" ./cmd/cara
export PATH="$bin:$PATH:$(go env GOPATH)/bin"
if command -v ttyd >/dev/null && command -v vhs >/dev/null; then
  vhs "$tape"
else
  echo "gif: no ttyd (or no vhs): playing $tape with scripts/tapegif" >&2
  go build -o "$bin/tapegif" ./scripts/tapegif
  go build -o "$bin/svgcells" ./scripts/svgcells
  "$bin/tapegif" -svgcells "$bin/svgcells" ${FRAMES:+-frames "$FRAMES"} "$tape"
fi
