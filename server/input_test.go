package server

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// chunks is a client's input arriving in pieces, one a Read.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// fakeTime is a clock that sleeping moves.
type fakeTime struct {
	t     time.Time
	slept time.Duration
}

func (f *fakeTime) now() time.Time { return f.t }
func (f *fakeTime) sleep(d time.Duration) bool {
	f.t, f.slept = f.t.Add(d), f.slept+d
	return true
}

// readAll reads in until EOF.
func readAll(t *testing.T, in *input) string {
	t.Helper()
	var out bytes.Buffer
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			return out.String()
		}
	}
}

func newTestInput(parts ...string) (*input, *fakeTime) {
	clock := &fakeTime{t: time.Unix(0, 0)}
	in := newInput(context.Background(), &chunks{parts}, func() {})
	in.now, in.sleep = clock.now, clock.sleep
	return in, clock
}

// Keys and short pastes pass as sent, a marker split across reads included; a long paste is cut to
// maxPaste bytes and still ends; bytes that only begin the end marker are the paste's content.
func TestInputPaste(t *testing.T) {
	big := strings.Repeat("x", 3*maxPaste)
	for _, tc := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"keys", []string{"jjk\x1b[A", "q"}, "jjk\x1b[Aq"},
		{"short paste", []string{"\x1b[200~hello\x1b[201~q"}, "\x1b[200~hello\x1b[201~q"},
		{"markers split", []string{"\x1b[2", "00~ab\x1b", "[20", "1~q"}, "\x1b[200~ab\x1b[201~q"},
		{"an end that is not", []string{"\x1b[200~a\x1b[20x\x1b\x1b[201~"}, "\x1b[200~a\x1b[20x\x1b\x1b[201~"},
		{"long paste", []string{"\x1b[200~" + big + "\x1b[201~q"}, "\x1b[200~" + big[:maxPaste] + "\x1b[201~q"},
	} {
		in, _ := newTestInput(tc.parts...)
		if got := readAll(t, in); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, trim(got), trim(tc.want))
		}
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-40:]
	}
	return s
}

// A paste that has not ended a second after it began is ended before the next key: q works again.
func TestInputPasteTimeout(t *testing.T) {
	clock := &fakeTime{t: time.Unix(0, 0)}
	r := &slowChunks{parts: []string{"\x1b[200~junk", "more", "q"}, clock: clock, gap: 600 * time.Millisecond}
	in := newInput(context.Background(), r, func() {})
	in.now, in.sleep = clock.now, clock.sleep
	got := readAll(t, in)
	if want := "\x1b[200~junkmore\x1b[201~q"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// slowChunks is chunks whose parts arrive gap apart on clock.
type slowChunks struct {
	parts []string
	clock *fakeTime
	gap   time.Duration
}

func (s *slowChunks) Read(p []byte) (int, error) {
	if len(s.parts) == 0 {
		return 0, io.EOF
	}
	s.clock.t = s.clock.t.Add(s.gap)
	n := copy(p, s.parts[0])
	s.parts = s.parts[1:]
	return n, nil
}

// Input beyond the burst is read at inputRate: 64 KiB piped in takes (64 - 4) / 1 s of waiting.
func TestInputRate(t *testing.T) {
	in, clock := newTestInput(strings.Repeat("j", 64<<10))
	got := readAll(t, in)
	if len(got) != 64<<10 {
		t.Fatalf("%d bytes read", len(got))
	}
	want := time.Duration(float64(64<<10-inputBurst) / inputRate * float64(time.Second))
	if d := clock.slept - want; d < -time.Second/10 || d > time.Second/10 {
		t.Errorf("waited %v, want about %v", clock.slept, want)
	}
	typing, clock2 := newTestInput(strings.Repeat("j", 2000))
	readAll(t, typing)
	if clock2.slept != 0 {
		t.Errorf("2000 bytes within the burst waited %v", clock2.slept)
	}
}
