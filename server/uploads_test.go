package server

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/cara-sim/cara/scenarios"
)

// An upload is checked, kept for its owner and listed in their picker as theirs, and only theirs:
// another user's picker does not show it.
func TestServeUpload(t *testing.T) {
	t.Parallel()
	ran := 0
	addr := startServer(t, Config{Exec: func(context.Context, ExecRequest) int { ran++; return 0 }})
	text, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mine := strings.Replace(strings.Replace(string(text), "name: small", "name: mine", 1), "Small: a test scenario", "Mine: uploaded", 1)
	c, err := dial(t, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	up, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	up.Stdin, up.Stdout, up.Stderr = strings.NewReader(mine), &out, &errOut
	if err := up.Run("upload mine"); err != nil || !strings.HasPrefix(out.String(), "mine: ok") || ran != 0 {
		t.Fatalf("upload: %v, %q %q, commands run %d", err, out.String(), errOut.String(), ran)
	}
	sess, sc := openPTY(t, c)
	defer sess.Close()
	sc.waitFor(t, "pick a scenario")
	sc.send(strings.Repeat("j", len(scenarios.Embedded())+1))
	sc.waitFor(t, "Mine: uploaded  (mine, yours)")
	sc.send("\r")
	sc.waitFor(t, "computed all")

	// Another user (another owner) does not see it.
	other, err := dialAs(t, addr, "someone-else")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	osess, osc := openPTY(t, other)
	defer osess.Close()
	osc.waitFor(t, "pick a scenario")
	osc.send(strings.Repeat("j", len(scenarios.Embedded())+1))
	osc.waitFor(t, "Small: a test scenario")
	if strings.Contains(osc.String(), "Mine: uploaded") {
		t.Error("another user's picker lists the upload")
	}
}

func dialAs(t *testing.T, addr, user string) (*gossh.Client, error) {
	t.Helper()
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
}
