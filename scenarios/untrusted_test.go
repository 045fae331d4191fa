package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An untrusted scenario (sent to a server) reads only the embedded streams and the files inside
// the folder the server offers: every way of naming another file is refused, and says so.
func TestUntrustedFiles(t *testing.T) {
	offered := t.TempDir()
	seven, err := os.ReadFile(filepath.Join("testdata", "csv", "seven.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(offered, "mine.csv"), seven, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.csv")
	if err := os.WriteFile(outside, seven, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(offered, "link.csv")); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join("testdata", "csv", "seven.csv"))
	scenario := func(csv string) []byte {
		return []byte("name: sent\nseed: 0\nbatches: 3\noffline: 1\ndata: {csv: " + csv + ", label: y}\n" +
			"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n")
	}
	for _, tc := range []struct {
		name     string
		csv      string
		sets     []string
		filesDir string
		err      string // "" for loads
	}{
		{name: "a file in the offered folder", csv: "mine.csv", filesDir: offered},
		{name: "climbing out of the offered folder", csv: "../../../../../../" + abs, filesDir: offered, err: "may read only files in the server's data folder"},
		{name: "an absolute path", csv: abs, filesDir: offered, err: "may read only"},
		{name: "a link out of the folder", csv: "link.csv", filesDir: offered, err: "may read only"},
		{name: "the folder itself", csv: ".", filesDir: offered, err: "may read only"},
		{name: "no folder offered", csv: "mine.csv", err: "may read only the embedded streams (electricity.csv, weather.csv)"},
		{name: "--set adds a path", csv: "mine.csv", sets: []string{"data.csv=" + abs}, filesDir: offered, err: "--set data.csv"},
		{name: "--set queries from a file", csv: "mine.csv", sets: []string{"queries={csv: " + abs + ", label: y}"}, filesDir: offered, err: "may read only"},
	} {
		_, err := Parse("sent.yaml", scenario(tc.csv), "", Options{Untrusted: true, FilesDir: tc.filesDir, Set: tc.sets})
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.err)
		}
		// The same text from a trusted user reads the file where it is.
		if tc.name == "an absolute path" {
			if _, err := Parse("sent.yaml", scenario(tc.csv), "", Options{}); err != nil {
				t.Errorf("trusted %s: %v", tc.name, err)
			}
		}
	}
	// The embedded streams stay open to everyone.
	s, err := Load("electricity", Options{Untrusted: true})
	if err != nil {
		t.Fatalf("electricity, untrusted: %v", err)
	}
	if _, err := s.Stream(0); err != nil {
		t.Fatal(err)
	}
}
