package server

import (
	"fmt"
	"sync"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// The largest terminal a session draws for: memory and drawing time grow with width x height
// (547 MB for one session at 4000x2000), so a bigger terminal gets a 500x200 screen in its
// top-left corner, and a line under it saying so.
const (
	maxCols = 500
	maxRows = 200
)

// window is one session channel's terminal size as the client asks for it, and its changes for
// the program, clamped and coalesced: a change not yet taken is replaced by a newer one, so a
// storm of resizes costs the program one redraw per size it gets to, not one per request.
type window struct {
	mu      sync.Mutex
	asked   ssh.Window
	changes chan ssh.Window // the newest change not yet taken (capacity 1)
}

func newWindow() *window { return &window{changes: make(chan ssh.Window, 1)} }

func clamp(w ssh.Window) ssh.Window {
	w.Width, w.Height = min(w.Width, maxCols), min(w.Height, maxRows)
	return w
}

// set records the client's size and offers its clamped form to the program, never blocking.
func (w *window) set(asked ssh.Window) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.asked = asked
	select {
	case <-w.changes:
	default:
	}
	w.changes <- clamp(asked)
}

// note says, when the client's terminal is larger than a session draws, how large each is; "" when
// it is not.
func (w *window) note() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c := clamp(w.asked); c != w.asked {
		return fmt.Sprintf("cara draws at most %dx%d; this terminal is %dx%d", maxCols, maxRows, w.asked.Width, w.asked.Height)
	}
	return ""
}

// windowKey finds a session channel's window in its context.
type windowKey struct{}

// channelContext is a session channel's context: its connection's, and its window.
type channelContext struct {
	ssh.Context
	win *window
}

func (c channelContext) Value(k any) any {
	if _, ok := k.(windowKey); ok {
		return c.win
	}
	return c.Context.Value(k)
}

// windowOf is a session's window; nil for a session not opened through sessionChannel.
func windowOf(sess ssh.Session) *window {
	w, _ := sess.Context().Value(windowKey{}).(*window)
	return w
}

// sessionChannel opens a session channel as charmbracelet/ssh does, but reads the channel's
// requests first. Upstream (ssh.DefaultSessionHandler) hands each window-change to a channel of
// capacity one that only a running program reads: a resize sent before the shell request, or after
// the program ended, blocks its request loop for good, so the session never starts and a goroutine
// stays until the connection ends; and it answers agent forwarding with success though nothing
// forwards. Here window changes are clamped, answered and coalesced (window), a pty-req's size is
// clamped before upstream sees it, agent forwarding and signals are refused, and everything else
// goes on to upstream, which answers it.
func (s *Server) sessionChannel(srv *ssh.Server, sc *gossh.ServerConn, newChan gossh.NewChannel, ctx ssh.Context) {
	c, ok := s.admitSession(ctx, sc, newChan)
	if !ok {
		return
	}
	if c != nil {
		defer c.sessions.Add(-1)
	}
	win := newWindow()
	ssh.DefaultSessionHandler(srv, sc, filteredChannel{newChan, win}, channelContext{ctx, win}) // until the channel closes
}

// filteredChannel is a session channel whose requests pass through filterRequests.
type filteredChannel struct {
	gossh.NewChannel
	win *window
}

func (f filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, in, err := f.NewChannel.Accept()
	if err != nil {
		return ch, in, err
	}
	out := make(chan *gossh.Request)
	go filterRequests(in, out, f.win)
	return ch, out, nil
}

// ptyRequest is a pty-req's payload (RFC 4254, 6.2).
type ptyRequest struct {
	Term                   string
	Cols, Rows, WPix, HPix uint32
	Modes                  string
}

// windowChange is a window-change's payload (RFC 4254, 6.7).
type windowChange struct {
	Cols, Rows, WPix, HPix uint32
}

// filterRequests reads a session channel's requests until the channel closes (with its
// connection at the latest), answering some itself and passing the rest to upstream's loop, which
// then never blocks.
func filterRequests(in <-chan *gossh.Request, out chan<- *gossh.Request, win *window) {
	defer close(out)
	for req := range in {
		switch req.Type {
		case "window-change":
			var wc windowChange
			if err := gossh.Unmarshal(req.Payload, &wc); err != nil {
				req.Reply(false, nil)
				continue
			}
			win.set(ssh.Window{Width: int(wc.Cols), Height: int(wc.Rows), WidthPixels: int(wc.WPix), HeightPixels: int(wc.HPix)})
			req.Reply(true, nil)
			continue
		case "pty-req":
			var pr ptyRequest
			if err := gossh.Unmarshal(req.Payload, &pr); err == nil {
				asked := ssh.Window{Width: int(pr.Cols), Height: int(pr.Rows), WidthPixels: int(pr.WPix), HeightPixels: int(pr.HPix)}
				c := clamp(asked)
				pr.Cols, pr.Rows = uint32(c.Width), uint32(c.Height)
				req.Payload = gossh.Marshal(pr)
				win.set(asked)
			}
		case "auth-agent-req@openssh.com", "signal":
			req.Reply(false, nil)
			continue
		}
		out <- req
	}
}

// sizedSession is a session whose window changes come from its window: clamped and coalesced.
type sizedSession struct {
	ssh.Session
	win *window
}

func (s sizedSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	pty, _, ok := s.Session.Pty()
	return pty, s.win.changes, ok
}

// sized hands the rest of the chain a session whose Pty reports its window's changes (wish's
// bubbletea middleware turns them into the program's WindowSizeMsgs).
func sized(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if w := windowOf(sess); w != nil {
			sess = sizedSession{sess, w}
		}
		next(sess)
	}
}
