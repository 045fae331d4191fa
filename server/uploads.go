package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/internal/budget"
	"github.com/cara-sim/cara/scenarios"
)

// Uploads: `ssh HOST upload NAME < my.yaml` checks a scenario as every command does and keeps its
// text in memory for its owner (nothing is written to the server's disk), where the owner's picker
// lists it as theirs and their commands can name it; it is parsed again whenever it is opened (a
// scenario that reads the Electricity stream holds 2.45 MB parsed, its text a few hundred bytes). A
// presenter's uploads are offered to the whole room.
//
// The owner is the login key's fingerprint, which no other client can claim. A password room has
// no such identity: its students share one password, and a user name and address are anyone's to
// type (behind one NAT, with the same login, students saw each other's uploads, and cycling names
// evicted everyone's). There an upload needs a key login (a presenter's, or --authorized-keys):
// that is the choice made rather than tying uploads to the SSH connection's session, which would
// keep them only for the one connection that sent them, never for the player the student opens next
// with another ssh. In a room with no authentication at all (a loopback try, --open) nobody's
// identity is checked anyway, and the owner is the user name and the address, as before.
//
// Bounds: 64 kB a scenario, 8 an owner (a ninth replaces the oldest), and UploadBytes of text in
// all, counted in the room's budget; a full room refuses new uploads rather than dropping anyone's.

const (
	uploadMax      = 64 << 10 // bytes of one scenario
	uploadsPerUser = 8        // a ninth replaces the oldest
	// defaultUploadBytes is every upload's text at most, unless told otherwise.
	defaultUploadBytes = 16 << 20
	// checkBytes is what checking a scenario may hold, for the budget: the largest embedded stream a
	// scenario may read (Electricity) parsed, with room to spare.
	checkBytes = 8 << 20
)

var uploadName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

type upload struct {
	name         string
	title, about string // the scenario's, for the picker
	text         []byte
}

// uploads are every owner's uploaded scenarios, as text.
type uploads struct {
	budget *budget.Budget
	max    int64 // bytes of text in all

	mu     sync.Mutex
	by     map[string][]upload
	bytes  int64          // text held
	ticket *budget.Ticket // bytes, in the room's budget
}

func newUploads(b *budget.Budget, max int64) *uploads {
	if max <= 0 {
		max = defaultUploadBytes
	}
	return &uploads{budget: b, max: max, by: map[string][]upload{}, ticket: b.Charge(0)}
}

// errUploadsFull refuses an upload that would take the room's uploads over their bound.
var errUploadsFull = errors.New("this room keeps no more uploads (its bound on their size is reached); send the scenario with each command instead: ssh HOST run - < my.yaml")

// owner names who a session is, for their uploads and the commands' per-client limit: the login
// key's fingerprint, or the user name and the address.
func owner(sess ssh.Session) string {
	if k := sess.PublicKey(); k != nil {
		return gossh.FingerprintSHA256(k)
	}
	return sess.User() + "@" + host(sess.RemoteAddr())
}

// uploadOwner is who owns a session's uploads, or false when it may not upload: a password room's
// client without a key login.
func (s *Server) uploadOwner(sess ssh.Session) (string, bool) {
	if sess.PublicKey() == nil && s.cfg.PasswordFile != "" {
		return "", false
	}
	return owner(sess), true
}

// put keeps text as who's upload name, replacing one of that name (and the oldest of nine).
func (u *uploads) put(who string, up upload) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	list := slices.DeleteFunc(slices.Clone(u.by[who]), func(x upload) bool { return x.name == up.name })
	list = append(list, up)
	if len(list) > uploadsPerUser {
		list = list[len(list)-uploadsPerUser:]
	}
	after := u.bytes - textBytes(u.by[who]) + textBytes(list)
	if after > u.max {
		return errUploadsFull
	}
	u.by[who] = list
	u.bytes = after
	u.ticket.Resize(u.bytes, false)
	return nil
}

func textBytes(list []upload) int64 {
	n := int64(0)
	for _, x := range list {
		n += int64(len(x.text))
	}
	return n
}

// stats are the uploads held: how many, and their bytes.
func (u *uploads) stats() (n int, bytes int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, l := range u.by {
		n += len(l)
	}
	return n, u.bytes
}

// entries are the catalog entries of who's uploads and of the presenters' (shared), each with the
// function that parses it when it is opened (untrusted, confined to dir's CSV files).
func (u *uploads) entries(who string, presenters []string, dir string) ([]scenarios.Entry, []func() (*scenarios.Scenario, error)) {
	u.mu.Lock()
	defer u.mu.Unlock()
	var es []scenarios.Entry
	var load []func() (*scenarios.Scenario, error)
	add := func(o, mark string) {
		for _, x := range u.by[o] {
			es = append(es, scenarios.Entry{Ref: "upload:" + o + "/" + x.name, Title: x.title + "  (" + x.name + ", " + mark + ")", About: x.about})
			name, text := x.name, x.text
			load = append(load, func() (*scenarios.Scenario, error) {
				return scenarios.Parse(name+".yaml", text, "", scenarios.Options{Untrusted: true, FilesDir: dir})
			})
		}
	}
	if who != "" {
		add(who, "yours")
	}
	for _, p := range presenters {
		if p != who {
			add(p, "the presenter's")
		}
	}
	return es, load
}

// catalogFor is the catalog a session is offered: the server's, and the uploads it may see.
func (s *Server) catalogFor(sess ssh.Session) *scenarios.Catalog {
	cat := s.catalog.Load()
	var presenters []string
	if s.cfg.PresenterKeys != "" {
		if ps := s.presenters.Load(); ps != nil {
			for _, k := range *ps {
				presenters = append(presenters, gossh.FingerprintSHA256(k))
			}
		}
	}
	who, _ := s.uploadOwner(sess)
	es, load := s.uploads.entries(who, presenters, s.cfg.ScenariosDir)
	if len(es) == 0 {
		return cat
	}
	return cat.Plus(es, load)
}

// upload runs `upload NAME`: the scenario on stdin, checked as an untrusted one (it may read no
// file but the embedded data and the offered folder) once the room's memory has room for the check,
// and its text kept for its owner.
func (s *Server) upload(ctx context.Context, sess ssh.Session, stdout, stderr io.Writer) int {
	args := sess.Command()
	if len(args) != 2 || !uploadName.MatchString(args[1]) {
		fmt.Fprintln(stderr, "cara: give a name: ssh HOST upload NAME < my.yaml (NAME: lower-case letters, digits, - and _, at most 40)")
		return 2
	}
	who, ok := s.uploadOwner(sess)
	if !ok {
		s.metrics.workRefused.WithLabelValues("upload_needs_key").Inc()
		fmt.Fprintln(stderr, "cara: in this room an upload needs a key login (its students share a password, so a name is anyone's); send the scenario with each command instead: ssh HOST run - < my.yaml, or write it in the player's editor (e)")
		return 1
	}
	text, err := io.ReadAll(io.LimitReader(sess, uploadMax+1))
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "cara: upload: %v\n", err)
		return 1
	case len(text) > uploadMax:
		fmt.Fprintf(stderr, "cara: upload: a scenario is at most %d bytes here; this one is longer\n", uploadMax)
		return 1
	}
	sc, err := s.checkText(ctx, args[1]+".yaml", text)
	if err == nil {
		err = s.check(sc)
	}
	if err == nil {
		err = s.uploads.put(who, upload{name: args[1], title: oneLine(sc.Title), about: sc.About, text: text})
		if errors.Is(err, errUploadsFull) {
			s.metrics.workRefused.WithLabelValues("uploads_full").Inc()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "cara: %v\n", err)
		return 1
	}
	s.cfg.Log.Info("upload", "user", userForLog(sess.User()), "addr", sess.RemoteAddr().String(), "name", args[1], "bytes", len(text))
	fmt.Fprintf(stdout, "%s: ok (%s); it is in your picker as %q, and commands take it by that name\n", args[1], oneLine(sc.Title), args[1])
	return 0
}

// checkText parses a client's scenario once the room's memory has room for it (checkBytes, as
// quick work: ahead of the runs in line, at most a while).
func (s *Server) checkText(ctx context.Context, name string, text []byte) (*scenarios.Scenario, error) {
	t, err := s.quick(ctx, checkBytes)
	if err != nil {
		return nil, err
	}
	defer t.Release()
	return scenarios.Parse(name, text, "", scenarios.Options{Untrusted: true, FilesDir: s.cfg.ScenariosDir})
}

// quick holds bytes of the room's budget for quick work, waiting a while at most.
func (s *Server) quick(ctx context.Context, bytes int64) (*budget.Ticket, error) {
	ctx, cancel := context.WithTimeout(ctx, quickWait)
	defer cancel()
	t, err := s.budget.Acquire(ctx, budget.Request{Bytes: bytes, Quick: true}, nil)
	if err != nil && ctx.Err() != nil {
		s.metrics.workRefused.WithLabelValues("queue_timeout").Inc()
		return nil, errors.New("the room's memory is in use; try again in a moment")
	}
	return t, err
}

// quickWait bounds how long quick work waits for the room's memory.
const quickWait = 30 * time.Second

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
