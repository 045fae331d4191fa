package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
)

// line is a status line for one stage of work (a matrix, a sweep, a reproduction). On a terminal
// it is redrawn in place as the work goes; anywhere else (a pipe, a file, a CI log) it prints
// nothing until the stage ends and then its last text once, so logs get one line per stage.
// A nil writer makes it silent.
type line struct {
	w    io.Writer
	tty  bool
	last time.Time // last redraw, to keep a fast loop from flooding the terminal
	text string
}

// redrawEvery bounds how often a terminal line is redrawn.
const redrawEvery = 100 * time.Millisecond

func newLine(w io.Writer) *line {
	return &line{w: w, tty: isTerminal(w)}
}

// isTerminal reports whether w is a terminal (a file whose descriptor is a TTY).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func (l *line) printf(format string, args ...any) {
	if l.w == nil {
		return
	}
	l.text = fmt.Sprintf(format, args...)
	if l.tty && time.Since(l.last) >= redrawEvery {
		fmt.Fprintf(l.w, "\r\033[K%s", l.text)
		l.last = time.Now()
	}
}

// done ends the stage: a terminal's line is cleared, elsewhere the last text is printed once.
func (l *line) done() {
	if l.w == nil {
		return
	}
	if l.tty {
		fmt.Fprint(l.w, "\r\033[K")
	} else if l.text != "" {
		fmt.Fprintln(l.w, l.text)
	}
	l.text = ""
}

// progress is a bar with an ETA, drawn on a line.
type progress struct {
	l     *line
	total int
	start time.Time
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{l: newLine(w), total: total, start: time.Now()}
}

func (p *progress) set(done int, format string, args ...any) {
	const width = 30
	frac := 1.0
	if p.total > 0 {
		frac = float64(done) / float64(p.total)
	}
	eta := "  ETA ?"
	switch {
	case done >= p.total:
		eta = ""
	case done > 0:
		left := time.Duration(float64(time.Since(p.start)) * (1 - frac) / frac)
		eta = "  ETA " + left.Round(time.Second).String()
	}
	n := int(frac * width)
	p.l.printf("[%s%s] %3.0f%% %d/%d%s  %s", strings.Repeat("#", n), strings.Repeat(".", width-n),
		100*frac, done, p.total, eta, fmt.Sprintf(format, args...))
}

// finish ends a completed stage (callers that fail return without it): off a terminal its one
// line says the whole stage was done and how long it took.
func (p *progress) finish() {
	p.set(p.total, "took %s", time.Since(p.start).Round(100*time.Millisecond))
	p.l.done()
}
