package main

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/server"
)

// sshCommand runs one command over a new SSH connection and returns its stdout, stderr and exit
// status.
func sshCommand(t *testing.T, addr, stdin string, command string) (string, string, int) {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "student",
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr, sess.Stdin = &out, &errOut, strings.NewReader(stdin)
	err = sess.Run(command)
	var exit *gossh.ExitError
	switch {
	case err == nil:
		return out.String(), errOut.String(), 0
	case errors.As(err, &exit):
		return out.String(), errOut.String(), exit.ExitStatus()
	}
	t.Fatalf("ssh %s: %v", command, err)
	return "", "", -1
}

// serveCommands serves cfg on a loopback port as cara serve would run its commands (4 sessions,
// one computing, the serve command's work bound and limits, a minute's idle and command time),
// stopped when the test ends, and returns the server and its address.
func serveCommands(t *testing.T, cfg server.Config) (*server.Server, string) {
	t.Helper()
	cfg.Listen, cfg.HostKey = "127.0.0.1:0", filepath.Join(t.TempDir(), "key")
	cfg.MaxSessions, cfg.MaxComputing, cfg.IdleTimeout, cfg.MaxWork = 4, 1, time.Minute, serveMaxWork
	cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Exec = remoteLimits{Timeout: time.Minute, MaxOutput: 1 << 20}.exec
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(srv.Close)
	return srv, ln.Addr().String()
}

// Over a real SSH connection: a client's command prints what the local one prints, byte for
// byte, with its exit status; refusals are one line and a non-zero status; a scenario comes on
// standard input.
func TestServeCommands(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	_, addr := serveCommands(t, server.Config{ScenariosDir: dir})

	// An embedded scenario (its forest cut to 10 trees: the bytes, not the forest, are tested).
	args := "run small -R 0.3 --format json"
	local, _, err := caraIO(t, "run", small, "-R", "0.3", "--format", "json")
	if !testing.Short() {
		args = "run covcon-d -R 30 --trees 10 --format json"
		local, _, err = caraIO(t, strings.Fields(args)...)
	}
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := sshCommand(t, addr, "", args)
	if code != 0 || out != local {
		t.Errorf("ssh %s: exit %d, stderr %q; the local output byte for byte: %v", args, code, errOut, out == local)
	}
	matrix, _, err := caraIO(t, "matrix", small, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := sshCommand(t, addr, "", "matrix small --format csv"); code != 0 || out != matrix {
		t.Errorf("ssh matrix: exit %d, stderr %q; the local output: %v", code, errOut, out == matrix)
	}
	if out, errOut, code := sshCommand(t, addr, string(mustRead(t, small)), "validate -"); code != 0 || !strings.HasPrefix(out, "stdin: ok (12 batches") {
		t.Errorf("ssh validate - < small.yaml: exit %d, %q %q", code, out, errOut)
	}
	for _, tc := range []struct{ command, want string }{
		{"bash -c id", `"bash" is not a command this server runs`},
		{"run small --figures /tmp", "--figures: not taken over SSH"},
		{"matrix small -o /tmp/x.json", "-o: not taken over SSH"},
		{"run /etc/passwd", `no scenario "/etc/passwd" here`},
	} {
		out, errOut, code := sshCommand(t, addr, "", tc.command)
		if code == 0 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("ssh %s: exit %d, stdout %q, stderr %q; want one line with %q", tc.command, code, out, errOut, tc.want)
		}
	}
	// An upload: checked, kept for its owner, listed and run by name; a bad one is refused with the
	// loader's located error.
	mine := strings.Replace(string(mustRead(t, small)), "name: small", "name: mine", 1)
	if out, errOut, code := sshCommand(t, addr, mine, "upload mine"); code != 0 || !strings.HasPrefix(out, "mine: ok") {
		t.Errorf("ssh upload mine: exit %d, %q %q", code, out, errOut)
	}
	if out, _, code := sshCommand(t, addr, "", "list"); code != 0 || !strings.Contains(out, "\nmine ") || !strings.Contains(out, "yours") ||
		!strings.Contains(out, "(small.yaml)") || strings.Contains(out, dir) {
		t.Errorf("ssh list after an upload (the offered files by name, never under %s): exit %d, %q", dir, code, out)
	}
	local, _, err = caraIO(t, "run", small, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := sshCommand(t, addr, "", "run mine --format csv"); code != 0 || out != strings.ReplaceAll(local, "small", "mine") {
		t.Errorf("ssh run mine: exit %d, %q, want\n%s", code, errOut, local)
	}
	bad := strings.Replace(mine, "batches: 12", "batches: twelve", 1)
	if _, errOut, code := sshCommand(t, addr, bad, "upload mine2"); code != 1 || !strings.Contains(errOut, "mine2.yaml:7:10") {
		t.Errorf("ssh upload of a typo: exit %d, %q", code, errOut)
	}
	if _, errOut, code := sshCommand(t, addr, mine, "upload ../etc"); code != 2 || !strings.Contains(errOut, "give a name") {
		t.Errorf("ssh upload ../etc: exit %d, %q", code, errOut)
	}
	// Over the server's budget: one line, exit 1, nothing computed.
	huge := strings.Replace(string(mustRead(t, small)), "batches: 12", "batches: 100000", 1)
	if _, errOut, code := sshCommand(t, addr, huge, "run -"); code != 1 || !strings.Contains(errOut, "max-work") {
		t.Errorf("ssh run - over --max-work: exit %d, stderr %q", code, errOut)
	}
}

// A command the room's memory could never hold is refused before anything is computed, saying how
// many trees would fit (3000 trees killed a server under a 3 GB cap after 18 s).
func TestServeCommandTooBig(t *testing.T) {
	srv, addr := serveCommands(t, server.Config{Memory: 256 << 20})
	start := time.Now()
	out, errOut, code := sshCommand(t, addr, "", "run covcon-d --set model.random_forest.trees=3000 --seeds 1")
	if code != 1 || out != "" || !strings.Contains(errOut, "3000 trees need about ") || !strings.Contains(errOut, "this room allows 160 MiB a run: try trees <= ") {
		t.Errorf("3000 trees in a room of 256 MiB: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if st := srv.Budget(); st.Granted != 0 || st.Peak > st.Pinned {
		t.Errorf("the refused command was given memory: %+v", st)
	}
	t.Logf("refused in %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(errOut))
}
