package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A frame is the screen as captured (ANSI) at a time of the recording: time only runs while the
// tape shows (Hide stops the clock, as in vhs).
type frame struct {
	at   time.Duration
	ansi string
}

type recording struct {
	frames []frame
	end    time.Duration // the recording's length
	shots  []shot
}

type shot struct{ path, ansi string }

func (r *recording) length() time.Duration { return r.end }

// distinct counts the frames that differ from the one before.
func (r *recording) distinct() int {
	n := 0
	for i, f := range r.frames {
		if i == 0 || f.ansi != r.frames[i-1].ansi {
			n++
		}
	}
	return n
}

// vhs's prompt for bash: a violet "> ".
const prompt = `\[\e[38;2;90;86;224m\]> \[\e[0m\]`

// term is a private tmux server for one recording.
type term struct{ sock string }

func (m term) tmux(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", m.sock}, args...)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return "", fmt.Errorf("tmux %s: %v: %s", args[0], err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("tmux %s: %v", args[0], err)
	}
	return string(out), nil
}

func (m term) screen(colour bool) (string, error) {
	if colour {
		return m.tmux("capture-pane", "-p", "-e")
	}
	return m.tmux("capture-pane", "-p")
}

// clock is the recording's time: it runs only while the tape is shown.
type clock struct {
	mu     sync.Mutex
	shown  bool
	since  time.Time
	before time.Duration
}

func (c *clock) now() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.shown {
		return c.before, false
	}
	return c.before + time.Since(c.since), true
}

func (c *clock) show(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if on == c.shown {
		return
	}
	if on {
		c.since = time.Now()
	} else {
		c.before += time.Since(c.since)
	}
	c.shown = on
}

// record plays the tape in tmux and captures the pane every 1/Framerate seconds while shown.
func record(t *tape) (*recording, error) {
	m := term{sock: fmt.Sprintf("tapegif-%d", os.Getpid())}
	shell := append([]string{"env", "PS1=" + prompt, "TERM=tmux-256color"}, t.env...)
	shell = append(shell, "bash", "--noprofile", "--norc", "+o", "history")
	// No status line: the pane is the whole terminal, as in vhs.
	args := []string{"-f", "/dev/null", "start-server", ";", "set-option", "-g", "status", "off", ";",
		"new-session", "-d", "-x", strconv.Itoa(t.cols()), "-y", strconv.Itoa(t.rows())}
	if _, err := m.tmux(append(args, shell...)...); err != nil {
		return nil, err
	}
	defer m.tmux("kill-server") //nolint:errcheck // the session is ours and ends with the recording

	// The shell's first prompt, before the first command types into it.
	if err := waitFor(m, t.waitPattern, "Screen", 5*time.Second); err != nil {
		return nil, fmt.Errorf("bash did not start in tmux: %v", err)
	}

	rec := &recording{}
	clk := &clock{shown: true, since: time.Now()}
	var mu sync.Mutex
	var captureErr error
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second / time.Duration(t.framerate))
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			at, shown := clk.now()
			if !shown {
				continue
			}
			s, err := m.screen(true)
			mu.Lock()
			if err != nil {
				captureErr = err
			} else {
				rec.frames = append(rec.frames, frame{at: at, ansi: s})
			}
			mu.Unlock()
		}
	}()

	typing := t.typing
	var err error
	for _, c := range t.cmds {
		if err = play(m, t, c, &typing, clk, rec); err != nil {
			err = fmt.Errorf("%v: %s: %v", c.pos, c.name, err)
			break
		}
	}
	rec.end, _ = clk.now()
	close(stop)
	<-done
	if err != nil {
		return nil, err
	}
	if captureErr != nil {
		return nil, captureErr
	}
	if len(rec.frames) == 0 {
		return nil, fmt.Errorf("the tape shows nothing (Hide without Show?)")
	}
	return rec, nil
}

// play runs one command. typing is the tape's TypingSpeed, which a Set may change midway.
func play(m term, t *tape, c command, typing *time.Duration, clk *clock, rec *recording) error {
	delay := *typing
	if c.speed > 0 {
		delay = c.speed
	}
	switch c.name {
	case "Set":
		if c.arg == "TypingSpeed" {
			*typing, _ = duration(c.value)
		}
	case "Sleep":
		time.Sleep(c.sleep)
	case "Hide":
		clk.show(false)
	case "Show":
		clk.show(true)
	case "Type":
		for _, r := range c.arg {
			if _, err := m.tmux("send-keys", "-l", "--", string(r)); err != nil {
				return err
			}
			time.Sleep(delay)
		}
	case "Key":
		for range c.count {
			if _, err := m.tmux("send-keys", c.keys); err != nil {
				return err
			}
			time.Sleep(delay)
		}
	case "Wait":
		re, timeout := t.waitPattern, t.waitTimeout
		if c.wait != nil {
			re = c.wait
		}
		if c.speed > 0 {
			timeout = c.speed
		}
		return waitFor(m, re, c.scope, timeout)
	case "Screenshot":
		s, err := m.screen(true)
		if err != nil {
			return err
		}
		rec.shots = append(rec.shots, shot{c.arg, s})
	}
	return nil
}

// waitFor polls the pane until re matches its last non-blank line (scope Line) or any of it
// (Screen).
func waitFor(m term, re interface{ MatchString(string) bool }, scope string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		s, err := m.screen(false)
		if err != nil {
			return err
		}
		text := strings.TrimRight(s, " \n")
		if scope == "Line" {
			if i := strings.LastIndexByte(text, '\n'); i >= 0 {
				text = text[i+1:]
			}
			text = strings.TrimRight(text, " ")
		}
		if re.MatchString(text) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%v passed and the screen does not match %v; it shows:\n%s", timeout, re, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
