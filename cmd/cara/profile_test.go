package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --cpuprofile and --memprofile write pprof files (gzipped protocol buffers) when the command
// ends, a failed one too; a path in a folder that does not exist is a usage mistake before
// anything runs.
func TestProfileFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"ok", []string{"run", small}, 0},
		{"failed", []string{"run", small, "--set", "name="}, 1},
	} {
		cpu, mem := filepath.Join(dir, tc.name+".cpu"), filepath.Join(dir, tc.name+".mem")
		root := newRootCmd()
		var stdout, stderr bytes.Buffer
		root.SetOut(&stdout)
		root.SetErr(&stderr)
		root.SetArgs(append(tc.args, "--cpuprofile", cpu, "--memprofile", mem))
		if code := execute(context.Background(), root, &stderr); code != tc.code {
			t.Fatalf("%s: exit %d, want %d: %s", tc.name, code, tc.code, stderr.String())
		}
		for _, f := range []string{cpu, mem} {
			b, err := os.ReadFile(f)
			if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
				t.Errorf("%s: %s is not a pprof file (%d bytes, %v)", tc.name, f, len(b), err)
			}
		}
	}
	root := newRootCmd()
	var stderr bytes.Buffer
	root.SetErr(&stderr)
	root.SetArgs([]string{"validate", small, "--cpuprofile", filepath.Join(dir, "no", "such", "x.prof")})
	if code := execute(context.Background(), root, &stderr); code != 2 || !strings.Contains(stderr.String(), "--cpuprofile") {
		t.Errorf("a profile in a missing folder: exit %d, stderr %q", code, stderr.String())
	}
}
