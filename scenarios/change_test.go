package scenarios

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cara-sim/cara/sim"
)

// With changes any part of the file (a new run's scenario), Text writes the file with the changes
// merged, and Reparse reads an edit of that text back: the round trip keeps every change.
func TestWithTextReparse(t *testing.T) {
	s, err := Load("covcon-d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.With([]string{"model.random_forest.trees=7", "offline=20"})
	if err != nil {
		t.Fatal(err)
	}
	if rf := w.Model.(sim.RandomForest); rf.Trees != 7 || w.Offline != 20 || w.Tour != nil {
		t.Errorf("With: trees %d, offline %d, tour %v; want 7, 20, none", rf.Trees, w.Offline, w.Tour != nil)
	}
	if s.Model.(sim.RandomForest).Trees == 7 || s.Offline == 20 {
		t.Error("With changed the scenario it was called on")
	}
	if _, err := s.With([]string{"data.nois=0.2"}); err == nil || !strings.HasPrefix(err.Error(), "--set data.nois") {
		t.Errorf("With a bad path: %v", err)
	}
	text, err := w.Text()
	if err != nil {
		t.Fatal(err)
	}
	back, err := s.Reparse(text)
	if err != nil {
		t.Fatalf("Reparse(Text()): %v\n%s", err, text)
	}
	if back.Model.(sim.RandomForest).Trees != 7 || back.Offline != 20 || back.Name != s.Name {
		t.Errorf("round trip: trees %d, offline %d, name %q", back.Model.(sim.RandomForest).Trees, back.Offline, back.Name)
	}
	if _, err := s.Reparse([]byte(strings.Replace(string(text), "batches: 100", "batches: many", 1))); err == nil || !strings.Contains(err.Error(), ":") {
		t.Errorf("Reparse of a typo: %v", err)
	}
	// An untrusted scenario's edit stays untrusted.
	sent := "name: sent\nseed: 0\nbatches: 3\noffline: 1\ndata: {csv: electricity.csv, label: class}\n" +
		"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n"
	u, err := Parse("sent.yaml", []byte(sent), "", Options{Untrusted: true})
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Join("testdata", "csv", "seven.csv"))
	if _, err := u.Reparse([]byte(strings.Replace(sent, "electricity.csv, label: class", abs+", label: y", 1))); err == nil || !strings.Contains(err.Error(), "may read only") {
		t.Errorf("an untrusted scenario's edit naming %s: %v", abs, err)
	}
}
