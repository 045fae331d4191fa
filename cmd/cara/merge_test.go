package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The merge a Kubernetes sweep runs in every pod as it ends (deploy/k8s/sweep): the shards as a
// pattern cara expands itself, written only by the shard that completes the sweep; the others,
// and a shard still writing its last line, say what is missing and succeed.
func TestMergeIfComplete(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:3", "--seeds", "2", "-o", full); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "small.jsonl")
	figs := filepath.Join(dir, "figures")
	pattern := filepath.Join(dir, "small-part-*.jsonl")
	merge := func() (string, error) {
		_, errOut, err := caraIO(t, "merge", "--if-complete", "--plot", figs, "-o", out, pattern)
		return errOut, err
	}
	// Before any shard has written: nothing matches, which is no error here.
	if errOut, err := merge(); err != nil || !strings.Contains(errOut, "not merged yet: no rows yet") {
		t.Fatalf("no shards yet: %v %q", err, errOut)
	}
	part := func(k int) string { return filepath.Join(dir, "small-part-"+string(rune('0'+k))+".jsonl") }
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:3", "--seeds", "2", "--shard-index", "0/2", "-o", part(0)); err != nil {
		t.Fatal(err)
	}
	errOut, err := merge()
	if want := "not merged yet: small (--costs 0.1:2:3, seeds 3 to 4 (--seed 3 --seeds 2)) lacks 27 of its 54 rows: seed 4 (all of it); the shard that completes the sweep merges it"; err != nil || !strings.Contains(errOut, want) {
		t.Fatalf("one shard of two: %v %q, want %q", err, errOut, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("an incomplete sweep was written: %v", err)
	}
	// The second shard with its last line half written (still running): not complete yet.
	if _, err := cara(t, "sweep", small, "--costs", "0.1:2:3", "--seeds", "2", "--shard-index", "1/2", "-o", part(1)); err != nil {
		t.Fatal(err)
	}
	whole := mustRead(t, part(1))
	torn := whole[:len(whole)-10]
	if err := os.WriteFile(part(1), torn, 0o644); err != nil {
		t.Fatal(err)
	}
	if errOut, err := merge(); err != nil || !strings.Contains(errOut, "lacks 1 of its 54 rows") {
		t.Fatalf("a shard mid-line: %v %q", err, errOut)
	}
	// Done: the merge is the whole sweep, byte for byte, and the figures are drawn; the output
	// never counts as one of the shards, though the pattern would match it.
	if err := os.WriteFile(part(1), whole, 0o644); err != nil {
		t.Fatal(err)
	}
	if errOut, err := merge(); err != nil || !strings.Contains(errOut, "merged 2 file(s)") {
		t.Fatalf("both shards: %v %q", err, errOut)
	}
	if !bytes.Equal(mustRead(t, out), mustRead(t, full)) {
		t.Error("the merged shards differ from the whole sweep")
	}
	if _, err := os.Stat(filepath.Join(figs, "small-sweep.png")); err != nil {
		t.Errorf("--plot drew no figure: %v", err)
	}
	if _, errOut, err := caraIO(t, "merge", "--if-complete", "-o", out, filepath.Join(dir, "small*.jsonl")); err != nil || !strings.Contains(errOut, "merged 2 file(s)") {
		t.Errorf("a pattern that matches the output too: %v %q", err, errOut)
	}
	// Without --if-complete a pattern must match, and the two modes do not mix.
	if _, err := cara(t, "merge", "-o", out, filepath.Join(dir, "none-*.jsonl")); err == nil || !strings.Contains(err.Error(), "none-*.jsonl: no file matches") {
		t.Errorf("a pattern matching nothing: %v", err)
	}
	if _, err := cara(t, "merge", "--if-complete", "--partial", "-o", out, pattern); err == nil || !strings.Contains(err.Error(), "contradict") {
		t.Errorf("--partial with --if-complete: %v", err)
	}
}
