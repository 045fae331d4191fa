package server

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/scenarios"
)

// Uploads: `ssh HOST upload NAME < my.yaml` checks a scenario as every command does and keeps it
// in memory for its owner (nothing is written to the server's disk), where the owner's picker
// lists it as theirs and their commands can name it. A presenter's uploads are offered to the
// whole room. The owner is the login key's fingerprint, or without a key the user name and the
// client's address (an upload's session has ended before the player's begins, so the session
// itself cannot be the owner). Capped in count and size.

const (
	uploadMax      = 64 << 10 // bytes of one scenario
	uploadsPerUser = 8        // a ninth replaces the oldest
	uploadOwners   = 500      // owners kept; a new one beyond replaces the longest idle
)

var uploadName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

type upload struct {
	name string
	s    *scenarios.Scenario
}

// uploads are every owner's uploaded scenarios.
type uploads struct {
	mu    sync.Mutex
	by    map[string][]upload
	order []string // owners, least recently uploaded first
}

func newUploads() *uploads { return &uploads{by: map[string][]upload{}} }

// owner names who a session is, for their uploads.
func owner(sess ssh.Session) string {
	if k := sess.PublicKey(); k != nil {
		return gossh.FingerprintSHA256(k)
	}
	host := sess.RemoteAddr().String()
	if i := strings.LastIndexByte(host, ':'); i > 0 {
		host = host[:i]
	}
	return sess.User() + "@" + host
}

// put keeps s as who's upload name, replacing one of that name.
func (u *uploads) put(who, name string, s *scenarios.Scenario) {
	u.mu.Lock()
	defer u.mu.Unlock()
	list := slices.DeleteFunc(u.by[who], func(x upload) bool { return x.name == name })
	list = append(list, upload{name, s})
	if len(list) > uploadsPerUser {
		list = list[len(list)-uploadsPerUser:]
	}
	u.order = append(slices.DeleteFunc(u.order, func(o string) bool { return o == who }), who)
	u.by[who] = list
	if len(u.order) > uploadOwners {
		delete(u.by, u.order[0])
		u.order = u.order[1:]
	}
}

// entries are the catalog entries of who's uploads and of the presenters' (shared), each with
// its loaded scenario.
func (u *uploads) entries(who string, presenters []string) ([]scenarios.Entry, []*scenarios.Scenario) {
	u.mu.Lock()
	defer u.mu.Unlock()
	var es []scenarios.Entry
	var ss []*scenarios.Scenario
	add := func(o, mark string) {
		for _, x := range u.by[o] {
			es = append(es, scenarios.Entry{Ref: "upload:" + o + "/" + x.name, Title: x.s.Title + "  (" + x.name + ", " + mark + ")", About: x.s.About})
			ss = append(ss, x.s)
		}
	}
	add(who, "yours")
	for _, p := range presenters {
		if p != who {
			add(p, "the presenter's")
		}
	}
	return es, ss
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
	es, ss := s.uploads.entries(owner(sess), presenters)
	if len(es) == 0 {
		return cat
	}
	return cat.Plus(es, ss)
}

// upload runs `upload NAME`: the scenario on stdin, checked as an untrusted one (it may read no
// file but the embedded data and the offered folder), kept for its owner.
func (s *Server) upload(sess ssh.Session) int {
	args := sess.Command()
	if len(args) != 2 || !uploadName.MatchString(args[1]) {
		fmt.Fprintln(sess.Stderr(), "cara: give a name: ssh HOST upload NAME < my.yaml (NAME: lower-case letters, digits, - and _, at most 40)")
		return 2
	}
	text, err := io.ReadAll(io.LimitReader(sess, uploadMax+1))
	switch {
	case err != nil:
		fmt.Fprintf(sess.Stderr(), "cara: upload: %v\n", err)
		return 1
	case len(text) > uploadMax:
		fmt.Fprintf(sess.Stderr(), "cara: upload: a scenario is at most %d bytes here; this one is longer\n", uploadMax)
		return 1
	}
	sc, err := scenarios.Parse(args[1]+".yaml", text, "", scenarios.Options{Untrusted: true, FilesDir: s.cfg.ScenariosDir})
	if err == nil {
		err = sc.CheckBudget(s.cfg.MaxWork, "cara serve --max-work")
	}
	if err != nil {
		fmt.Fprintf(sess.Stderr(), "cara: %v\n", err)
		return 1
	}
	s.uploads.put(owner(sess), args[1], sc)
	s.cfg.Log.Info("upload", "user", sess.User(), "addr", sess.RemoteAddr().String(), "name", args[1], "bytes", len(text))
	fmt.Fprintf(sess, "%s: ok (%s); it is in your picker as %q, and commands take it by that name\n", args[1], oneLine(sc.Title), args[1])
	return 0
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
