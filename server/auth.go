package server

import (
	"bufio"
	"bytes"
	"fmt"
	"os"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"
)

// readKeys reads an authorized_keys file: one public key a line (options and comments allowed as
// OpenSSH writes them), blank lines and # comments skipped. A line that is not a key is an error
// naming FILE:LINE.
func readKeys(path string) ([]ssh.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var keys []ssh.PublicKey
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, _, _, _, err := ssh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not a public key (%v); each line holds one, as in ~/.ssh/authorized_keys", path, n, err)
		}
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return keys, nil
}

func hasKey(keys []ssh.PublicKey, k ssh.PublicKey) bool {
	for _, o := range keys {
		if ssh.KeysEqual(o, k) {
			return true
		}
	}
	return false
}

// presenterAuth is the authentication of a room with presenters: a presenter's key gets in, and
// the room's other clients authenticate as they would without presenters (--authorized-keys,
// --password-file, or nothing in an open room, where any key, or none, gets in). Which key a
// session authenticated with is what makes it a presenter (isPresenter).
func (s *Server) presenterAuth() ([]ssh.Option, error) {
	keys, err := readKeys(s.cfg.PresenterKeys)
	if err != nil {
		return nil, fmt.Errorf("--presenter-keys: %w", err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("--presenter-keys %s: no public key in it", s.cfg.PresenterKeys)
	}
	s.presenters.Store(&keys)
	open := s.cfg.AuthorizedKeys == "" && s.cfg.PasswordFile == ""
	opts := []ssh.Option{wish.WithPublicKeyAuth(func(_ ssh.Context, k ssh.PublicKey) bool {
		switch {
		case hasKey(*s.presenters.Load(), k):
			return true
		case s.cfg.AuthorizedKeys != "":
			// Read at each login, as --authorized-keys is without presenters: edits take effect.
			students, err := readKeys(s.cfg.AuthorizedKeys)
			if err != nil {
				s.cfg.Log.Warn("authorized keys", "err", err)
			}
			return hasKey(students, k)
		}
		return open
	})}
	if open {
		// Clients without a key: keyboard-interactive with no questions, as no authentication was.
		opts = append(opts, wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }))
	}
	return opts, nil
}

// isPresenter reports whether a session authenticated with a presenter's key.
func (s *Server) isPresenter(sess ssh.Session) bool {
	keys := s.presenters.Load()
	return keys != nil && sess.PublicKey() != nil && hasKey(*keys, sess.PublicKey())
}
