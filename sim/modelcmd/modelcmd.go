// Package modelcmd is a model that is a command: cara starts the program once a run and speaks
// protocol 1, JSON lines on its standard input and output, asking it to fit M_t and to predict
// with M_t' on the rows of a batch (docs/byo-model.md has the messages). It is a sim.Outside: cara
// computes everything else, exactly as for its own models. Serve is the program's side, in Go.
// A served room never starts a command (the scenarios package refuses one there).
package modelcmd

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cara-sim/cara/sim"
)

// Protocol is the version of the protocol spoken: hello says it, and a command that answers with
// another is refused.
const Protocol = 1

// DefaultTimeout is how long a command may take to answer one message unless model.timeout says.
const DefaultTimeout = 60 * time.Second

// byeTimeout is how long a command has to exit after bye before it is killed.
const byeTimeout = 5 * time.Second

// maxLine bounds one answer: a prediction takes two bytes ("0,"), so 64 MB holds 30 million.
const maxLine = 64 << 20

// stderrKept is how much of the end of the command's standard error an error quotes.
const stderrKept = 2 << 10

// Command is a model that is a program. The zero Timeout is DefaultTimeout.
type Command struct {
	Argv     []string      // the program and its arguments
	Dir      string        // the folder it starts in (the scenario file's); "": cara's own
	Timeout  time.Duration // for one answer
	Features []string      // the features' names, in order, for hello
	Classes  [2]string     // the labels of class 0 and class 1 as the data write them
}

// Name implements sim.Outside.
func (c *Command) Name() string { return "command " + strings.Join(c.Argv, " ") }

func (c *Command) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// Open implements sim.Outside: it starts the command and says hello.
func (c *Command) Open(ctx context.Context, run sim.OutsideRun) (sim.Answers, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, errors.New("no program to start")
	}
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	s := &session{c: c, run: run, ctx: ctx, cmd: cmd, stderr: &tail{}, sent: make([]bool, len(run.Batches)),
		lines: make(chan []byte), stop: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	s.in = in
	go s.read(out)
	features := c.Features
	if features == nil {
		features = []string{}
	}
	hello, _ := json.Marshal(map[string]any{"type": "hello", "protocol": Protocol, "features": features,
		"classes": c.Classes, "batches": len(run.Batches), "offline": run.Offline, "seed": run.Seed})
	r, err := s.ask("hello", hello, "hello")
	if err == nil && r.Protocol != Protocol {
		err = s.fail("hello", fmt.Sprintf("the command speaks protocol %d; this cara speaks protocol %d (answer {\"type\":\"hello\",\"protocol\":%d})", r.Protocol, Protocol, Protocol))
	}
	if err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// session is one run's conversation with the command. Its methods are safe for concurrent use:
// one message at a time.
type session struct {
	c      *Command
	run    sim.OutsideRun
	ctx    context.Context
	cmd    *exec.Cmd
	in     io.WriteCloser
	stderr *tail
	lines  chan []byte   // the command's answers, a line each; closed at the end of its output
	stop   chan struct{} // closed when no more answers are awaited: the rest of its output is read and dropped
	halt   sync.Once
	exited chan struct{} // closed once the command has exited (waitE is set)
	waitE  error

	mu     sync.Mutex
	sent   []bool // the batches sent
	failed error  // the first failure, which every later call returns
}

// reply is an answer as the command writes it.
type reply struct {
	Type     string    `json:"type"`
	Protocol int       `json:"protocol"`
	Y        []float64 `json:"y"`
	Message  string    `json:"message"`
}

// read passes the command's output on, a line at a time (or drops it, once no answer is awaited:
// a command blocked on its output would never exit), then waits for it to exit.
func (s *session) read(out io.Reader) {
	br := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := readLine(br)
		if len(line) > 0 || err == nil {
			select {
			case s.lines <- line:
			case <-s.stop:
			}
		}
		if err != nil {
			break
		}
	}
	close(s.lines)
	s.waitE = s.cmd.Wait()
	close(s.exited)
}

// stopListening says that no more answers are awaited.
func (s *session) stopListening() { s.halt.Do(func() { close(s.stop) }) }

// errLong is a line longer than maxLine: what is left of it is not read.
var errLong = errors.New("line too long")

// readLine reads one line (without its end), at most maxLine bytes.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > maxLine {
			return []byte(`{"type":"` + errLong.Error() + `"}`), errLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return line, err
		}
		return line[:len(line)-1], nil
	}
}

// ask sends one message and waits for its answer, of type want, within the timeout.
func (s *session) ask(step string, msg []byte, want string) (reply, error) {
	if s.failed != nil {
		return reply{}, s.failed
	}
	timer := time.NewTimer(s.c.timeout())
	defer timer.Stop()
	wrote := make(chan error, 1)
	go func() {
		_, err := s.in.Write(append(msg, '\n'))
		wrote <- err
	}()
	var line []byte
	for got := false; !got; {
		select {
		case err := <-wrote:
			wrote = nil
			if err != nil {
				return reply{}, s.fail(step, "the message could not be sent: "+s.ending())
			}
		case l, ok := <-s.lines:
			if !ok {
				return reply{}, s.fail(step, "the command ended its output before it answered: "+s.ending())
			}
			line, got = l, true
		case <-timer.C:
			s.kill()
			return reply{}, s.fail(step, fmt.Sprintf("no answer within %s (model.timeout)", s.c.timeout()))
		case <-s.ctx.Done():
			s.kill()
			s.failed = s.ctx.Err()
			return reply{}, s.failed
		}
	}
	if wrote != nil { // the answer came before the write returned: it returns now, or never
		select {
		case <-wrote:
		case <-timer.C:
			s.kill()
			return reply{}, s.fail(step, "answered before it read the whole message")
		}
	}
	var r reply
	if err := json.Unmarshal(line, &r); err != nil || r.Type == "" {
		why := "which is not a JSON object with a type"
		if string(line) == `{"type":"`+errLong.Error()+`"}` {
			return reply{}, s.fail(step, fmt.Sprintf("answered a line of more than %d MB", maxLine>>20))
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			why = fmt.Sprintf("whose %s is not what protocol %d says (%s, want %s)", te.Field, Protocol, te.Value, te.Type)
		}
		return reply{}, s.fail(step, fmt.Sprintf("answered %s, %s; one JSON object a line answers each message, and anything else goes to standard error", quote(line), why))
	}
	switch r.Type {
	case want:
		return r, nil
	case "error":
		return reply{}, s.fail(step, "the command answered an error: "+cut(r.Message, 500))
	}
	return reply{}, s.fail(step, fmt.Sprintf("answered a message of type %q, want %q", cut(r.Type, 40), want))
}

// fail records the session's failure at step, with the end of the command's standard error.
func (s *session) fail(step, what string) error {
	err := fmt.Errorf("%s: %s%s", step, what, s.stderr.quote())
	s.failed = err
	return err
}

// ending says how the command ended: its exit status, once it has exited (it has closed its
// output, or its input).
func (s *session) ending() string {
	s.stopListening()
	select {
	case <-s.exited:
	case <-time.After(byeTimeout):
		s.kill()
		<-s.exited
	}
	if s.waitE == nil {
		return "it exited with status 0"
	}
	return "it " + exitText(s.waitE)
}

func exitText(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ee.Exited() {
			return fmt.Sprintf("exited with status %d", ee.ExitCode())
		}
		return "was ended by " + ee.String()
	}
	return "failed: " + err.Error()
}

func (s *session) kill() {
	if p := s.cmd.Process; p != nil {
		p.Kill()
	}
}

// sendBatch sends batch t's data and queries unless they were sent.
func (s *session) sendBatch(t int) error {
	if s.sent[t] {
		return nil
	}
	b := s.run.Batches[t]
	msg := []byte(`{"type":"batch","batch":` + strconv.Itoa(t) + `,"x":`)
	var err error
	if msg, err = appendPoints(msg, b.X); err != nil {
		return s.fail(fmt.Sprintf("batch %d", t), err.Error())
	}
	msg = append(msg, `,"y":`...)
	msg = appendClasses(msg, b.Y)
	msg = append(msg, `,"queries":`...)
	if msg, err = appendPoints(msg, b.Q); err != nil {
		return s.fail(fmt.Sprintf("batch %d's queries", t), err.Error())
	}
	msg = append(msg, '}')
	if _, err := s.ask(fmt.Sprintf("batch %d", t), msg, "ok"); err != nil {
		return err
	}
	s.sent[t] = true
	return nil
}

// Fit implements sim.Answers: batches t-window+1..t are sent (those not sent yet), then fit.
func (s *session) Fit(t int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := t
	if s.run.Window > 1 {
		from = max(0, t-s.run.Window+1)
	}
	msg := []byte(`{"type":"fit","model":` + strconv.Itoa(t) + `,"train":[`)
	for w := from; w <= t; w++ {
		if err := s.sendBatch(w); err != nil {
			return err
		}
		if w > from {
			msg = append(msg, ',')
		}
		msg = strconv.AppendInt(msg, int64(w), 10)
	}
	msg = append(msg, ']')
	if wts := s.run.Weights; wts != nil {
		msg = append(msg, `,"sample_weight":[`...)
		first := true
		for w := from; w <= t; w++ {
			for _, y := range s.run.Batches[w].Y {
				if !first {
					msg = append(msg, ',')
				}
				first = false
				msg = strconv.AppendFloat(msg, wts[y], 'g', -1, 64)
			}
		}
		msg = append(msg, ']')
	}
	msg = append(msg, '}')
	_, err := s.ask(fmt.Sprintf("fit model %d", t), msg, "ok")
	return err
}

// Predict implements sim.Answers: the command always knows its answers at the queries.
func (s *session) Predict(tp, t int, data, queries []uint8) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.sendBatch(t); err != nil {
		return false, err
	}
	for _, set := range []struct {
		name string
		out  []uint8
	}{{"data", data}, {"queries", queries}} {
		if set.out == nil {
			continue
		}
		step := fmt.Sprintf("predict model %d on batch %d's %s", tp, t, set.name)
		msg := fmt.Appendf(nil, `{"type":"predict","model":%d,"batch":%d,"set":%q}`, tp, t, set.name)
		r, err := s.ask(step, msg, "predict")
		if err != nil {
			return false, err
		}
		if len(r.Y) != len(set.out) {
			return false, s.fail(step, fmt.Sprintf("answered %d predictions for the %d rows", len(r.Y), len(set.out)))
		}
		for i, v := range r.Y {
			if v != 0 && v != 1 {
				return false, s.fail(step, fmt.Sprintf("prediction %d is %v: want 0 or 1, the class (0 is %q, 1 is %q)", i, v, s.c.Classes[0], s.c.Classes[1]))
			}
			set.out[i] = uint8(v)
		}
	}
	return true, nil
}

// Close implements sim.Answers: bye, and the command's exit awaited (an exit status other than 0
// is an error, with its standard error).
func (s *session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopListening() // whatever it still writes answers nothing
	if s.failed != nil {
		s.kill()
		<-s.exited
		return nil // reported already
	}
	s.in.Write([]byte(`{"type":"bye"}` + "\n"))
	s.in.Close()
	select {
	case <-s.exited:
	case <-time.After(byeTimeout):
		s.kill()
		<-s.exited
		return fmt.Errorf("bye: the command did not exit within %s of bye%s", byeTimeout, s.stderr.quote())
	}
	if s.waitE != nil {
		return fmt.Errorf("bye: the command %s%s", exitText(s.waitE), s.stderr.quote())
	}
	return nil
}

// appendPoints writes points as a JSON list of rows; a value that is not finite has no JSON form.
func appendPoints(b []byte, p sim.Points) ([]byte, error) {
	b = append(b, '[')
	for i := range p.Len() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for f, v := range p.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("feature %d of point %d is %v, which JSON cannot carry", f+1, i, v)
			}
			if f > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, ']')
	}
	return append(b, ']'), nil
}

func appendClasses(b []byte, y []uint8) []byte {
	b = append(b, '[')
	for i, c := range y {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '0'+c)
	}
	return append(b, ']')
}

// quote shows the start of a line the command wrote.
func quote(line []byte) string { return strconv.Quote(cut(string(line), 200)) }

// cut shortens text to n bytes, saying how long it was.
func cut(text string, n int) string {
	if len(text) <= n {
		return text
	}
	return fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(text[:n], ""), len(text))
}

// tail keeps the last stderrKept bytes written to it.
type tail struct {
	mu    sync.Mutex
	b     []byte
	total int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.total += len(p)
	t.b = append(t.b, p...)
	if len(t.b) > stderrKept {
		t.b = append(t.b[:0], t.b[len(t.b)-stderrKept:]...)
	}
	return len(p), nil
}

// quote is the end of what the command wrote to its standard error, for an error; "" when nothing.
func (t *tail) quote() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	text := strings.TrimSpace(strings.ToValidUTF8(string(t.b), "?"))
	if text == "" {
		return ""
	}
	lead := "its standard error"
	if t.total > len(t.b) {
		lead = fmt.Sprintf("the last %d bytes of its standard error (%d in all)", len(t.b), t.total)
	}
	return fmt.Sprintf("; %s:\n%s", lead, indent(text))
}

func indent(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = "  | " + strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return '?'
			}
			return r
		}, l)
	}
	return strings.Join(lines, "\n")
}
