package server

import (
	"bytes"
	"context"
	"io"
	"time"
)

// What one session may send: a key costs a redraw (about 80 us of the server's CPU a byte when
// typed), and bubbletea scans a bracketed paste again at each read until it ends (quadratic: an
// 8 MiB paste took 34 s of CPU), ignoring every key meanwhile.
const (
	maxPaste     = 4 << 10     // bytes of one paste passed on; the rest is dropped
	pasteTimeout = time.Second // a paste not ended by then is ended for the client
	inputRate    = 1 << 10     // bytes a second, sustained: far above typing, holding a key or a drag
	inputBurst   = 4 << 10     // bytes at once above the rate (a paste that fits is not slowed)
	readChunk    = 4 << 10     // bytes read from the client at a time
)

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// input is a session's input as its program reads it, at a cost linear in what the client sends:
// a bracketed paste is cut to maxPaste bytes, and one that has not ended after pasteTimeout is
// ended here (keys work again); input beyond inputRate a second is read more slowly, which holds
// the client back through SSH's flow control rather than costing the room CPU. The client closing
// its input ends the session's context.
type input struct {
	r      io.Reader
	cancel context.CancelFunc
	now    func() time.Time
	sleep  func(time.Duration) bool // waits; false when the session ended meanwhile

	raw     []byte
	pending []byte // filtered, not yet read
	err     error  // the client's read error, once pending is read

	pasting bool
	since   time.Time // when the paste began
	pasted  int       // content bytes of the paste passed on
	start   int       // bytes of pasteStart matched so far (outside a paste)
	held    []byte    // bytes that may begin pasteEnd (inside a paste)

	tokens float64
	last   time.Time
}

func newInput(ctx context.Context, r io.Reader, cancel context.CancelFunc) *input {
	sleep := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return true
		case <-ctx.Done():
			return false
		}
	}
	return &input{r: r, cancel: cancel, now: time.Now, sleep: sleep, raw: make([]byte, readChunk), tokens: inputBurst}
}

func (in *input) Read(p []byte) (int, error) {
	for len(in.pending) == 0 {
		if in.err != nil {
			return 0, in.err
		}
		n, err := in.r.Read(in.raw)
		in.filter(in.raw[:n], in.now())
		if err != nil {
			in.err = err
			in.cancel()
		}
	}
	n := copy(p, in.pending)
	in.pending = in.pending[n:]
	in.throttle(n)
	return n, nil
}

// filter passes b on to pending, cutting pastes short.
func (in *input) filter(b []byte, now time.Time) {
	if in.pasting && now.Sub(in.since) > pasteTimeout {
		in.endPaste()
	}
	for _, c := range b {
		if !in.pasting {
			in.pending = append(in.pending, c)
			in.start = advance(pasteStart, in.start, c)
			if in.start == len(pasteStart) {
				in.pasting, in.since, in.pasted, in.start = true, now, 0, 0
			}
			continue
		}
		in.held = append(in.held, c)
		if bytes.HasPrefix(pasteEnd, in.held) {
			if len(in.held) == len(pasteEnd) {
				in.held = in.held[:0]
				in.endPaste()
			}
			continue
		}
		// Not the end after all: what was held is content, but for a last byte that may begin it.
		k := 0
		if c == pasteEnd[0] {
			k = 1
		}
		for _, h := range in.held[:len(in.held)-k] {
			if in.pasted < maxPaste {
				in.pending = append(in.pending, h)
			}
			in.pasted++
		}
		in.held = append(in.held[:0], in.held[len(in.held)-k:]...)
	}
}

// endPaste ends the paste under way, as the client would have.
func (in *input) endPaste() {
	in.pending = append(in.pending, pasteEnd...)
	in.pasting, in.held = false, in.held[:0]
}

// advance is how much of marker is matched after c, given matched before it.
func advance(marker []byte, matched int, c byte) int {
	if c == marker[matched] {
		return matched + 1
	}
	if c == marker[0] {
		return 1
	}
	return 0
}

// throttle takes n bytes from the bucket, waiting while it owes (not past the session's end).
func (in *input) throttle(n int) {
	in.refill()
	in.tokens -= float64(n)
	for in.tokens < 0 {
		if !in.sleep(max(time.Duration(-in.tokens/inputRate*float64(time.Second)), time.Millisecond)) {
			return
		}
		in.refill()
	}
}

func (in *input) refill() {
	now := in.now()
	if !in.last.IsZero() {
		in.tokens = min(in.tokens+now.Sub(in.last).Seconds()*inputRate, inputBurst)
	}
	in.last = now
}
