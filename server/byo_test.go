package server

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cara-sim/cara/scenarios"
)

// refusal is the start of what a served room says of a scenario whose model is a command.
const refusal = "a served room starts no program"

// A room never starts a model command, whichever way a scenario comes in: a file of the server's
// folder, an embedded scenario changed with :set, an upload, the editor. Each is refused with the
// reason, and the program each names (a shell that would leave a file) never runs. (The SSH
// commands, ssh HOST run ..., load as untrusted in cmd/cara: cmd/cara's TestServedCommandsRunNoModelCommand.)
func TestServeRefusesModelCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mark := filepath.Join(dir, "ran")
	command := "{command: [sh, -c, 'touch " + mark + "']}"
	small, err := os.ReadFile("testdata/small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The folder's files: the small scenario with its model first (the editor's cursor starts there),
	// and one whose model is the command.
	text := "model: {nearest_centroid: {}}\n" + strings.Replace(string(small), "model: {nearest_centroid: {}}\n", "", 1)
	text = strings.Replace(strings.Replace(text, "name: small", "name: first", 1), "Small: a test scenario", "First: model first", 1)
	withCommand := strings.Replace(strings.Replace(text, "model: {nearest_centroid: {}}", "model: "+command, 1), "name: first", "name: cmd", 1)
	withCommand = strings.Replace(withCommand, "First: model first", "Cmd: a model command", 1)
	files := map[string]string{"first.yaml": text, "cmd.yaml": withCommand}
	// And a model from outside the room does run: a predictions file beside its scenario.
	for _, name := range []string{"fleet.yaml", "fleet.csv.gz", "predictions.csv.gz"} {
		b, err := os.ReadFile(filepath.Join("..", "docs", "examples", "byo", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv, addr, _ := startServing(t, Config{ScenariosDir: dir, Exec: func(context.Context, ExecRequest) int { return 0 }})

	// The folder: its entry says why, and it does not load.
	cat := srv.catalog.Load()
	ref, ok := cat.Lookup("cmd")
	if !ok {
		t.Fatal("the folder's scenario is not in the catalog")
	}
	if _, err := cat.Load(ref); err == nil || !strings.Contains(err.Error(), refusal) {
		t.Errorf("the folder's scenario with a model command: %v", err)
	} else {
		t.Logf("the folder's file says: %v", err)
	}
	if !entryAbout(cat, ref, refusal) {
		t.Errorf("the picker's entry does not say why: %+v", cat.Entries())
	}

	// The same file read by a catalog of cara play (not a room) loads: the refusal is the room's.
	if _, err := scenarios.NewCatalog(dir, nil).Load(ref); err != nil {
		t.Errorf("outside a room the scenario does not load: %v", err)
	}

	// An upload.
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
	up.Stdin, up.Stdout, up.Stderr = strings.NewReader(strings.Replace(withCommand, "name: cmd", "name: mine", 1)), &out, &errOut
	if err := up.Run("upload mine"); err == nil || !strings.Contains(out.String()+errOut.String(), refusal) {
		t.Errorf("upload: %v, %q %q", err, out.String(), errOut.String())
	}
	t.Logf("an upload says: %s", strings.TrimSpace(out.String()+errOut.String()))

	// An embedded scenario (covcon-d, where the picker starts) changed with :set, in the player.
	sess, sc := openPTY(t, c)
	defer sess.Close()
	sc.waitFor(t, "pick a scenario")
	sc.send("\r")
	sc.waitFor(t, "batch 0/")
	at := sc.mark()
	sc.send(":set model=" + command + "\r")
	if err := sc.waitAfter(at, refusal, 10*time.Second); err != nil {
		t.Errorf(":set: %v", err)
	}
	t.Logf(":set says: %s", lineWith(sc.since(at), refusal))

	// The editor, on the folder's own scenario: its first line becomes the command.
	backToPicker(t, sc)
	sc.send(strings.Repeat("j", entryIndex(t, cat, "first.yaml")-entryIndex(t, cat, scenarios.Default)))
	at = sc.mark()
	sc.send("\r")
	if err := sc.waitAfter(at, "first · seed 3", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := sc.waitAfter(at, "computed all", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	sc.send("e")
	sc.waitFor(t, "ctrl+s run")
	for range len("model: {nearest_centroid: {}}") {
		sc.in.Write([]byte("\x1b[3~")) // delete, the whole sequence at once
		time.Sleep(5 * time.Millisecond)
	}
	at = sc.mark()
	sc.send("model: " + command)
	if err := sc.waitAfter(at, refusal, 10*time.Second); err != nil {
		t.Errorf("the editor: %v", err)
	}
	t.Logf("the editor says: %s", lineWith(sc.since(at), refusal))
	sc.send("\x13") // ctrl+s: the text does not run
	time.Sleep(300 * time.Millisecond)

	// The predictions file's scenario plays.
	// The editor closed: wait for the player's status line, as an esc and a q read at once are alt+q.
	at = sc.mark()
	sc.send("\x1b")
	if err := sc.waitAfter(at, "first · seed 3", 15*time.Second); err != nil {
		t.Fatal(err)
	}
	backToPicker(t, sc)
	sc.send(strings.Repeat("j", entryIndex(t, cat, "fleet.yaml")-entryIndex(t, cat, "first.yaml")))
	at = sc.mark()
	sc.send("\r")
	if err := sc.waitAfter(at, "fleet · seed 0", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := sc.waitAfter(at, "computed all", 10*time.Second); err != nil {
		t.Fatal(err)
	}

	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the model command ran")
	}
	if st := srv.Runs().Stats(); st.Started > 3 {
		t.Errorf("runs started: %+v, want only the three scenarios opened", st)
	}
}

// lineWith is the screen's line that says want, its escape sequences dropped.
func lineWith(screen, want string) string {
	plain := regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`).ReplaceAllString(screen, "")
	for _, l := range strings.Split(plain, "\n") {
		if strings.Contains(l, want) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// entryIndex is the place of the file (or embedded scenario) name among the catalog's entries: the
// picker's order.
func entryIndex(t *testing.T, cat *scenarios.Catalog, name string) int {
	t.Helper()
	for i, e := range cat.Entries() {
		if filepath.Base(e.Ref) == name || e.Ref == name {
			return i
		}
	}
	t.Fatalf("no entry %s", name)
	return 0
}

// entryAbout reports whether the catalog's entry ref says want.
func entryAbout(cat *scenarios.Catalog, ref, want string) bool {
	for _, e := range cat.Entries() {
		if e.Ref == ref {
			return strings.Contains(e.About, want)
		}
	}
	return false
}
