package scenarios

import (
	"path/filepath"
	"slices"
	"testing"
)

// A CSV scenario's stream names its features by the header; a generated one leaves them unnamed.
func TestFeatureNames(t *testing.T) {
	src := []byte("name: named\nseed: 0\nbatches: 3\noffline: 1\ndata: {csv: seven.csv, label: y}\n" +
		"queries: {from: data, fraction: 0.5}\nmodel: {nearest_centroid: {}}\nretrain_cost: 1\n")
	s, err := Parse("named.yaml", src, filepath.Join("testdata", "csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Stream(0)
	if err != nil {
		t.Fatal(err)
	}
	named, ok := st.(interface{ FeatureNames() []string })
	if !ok {
		t.Fatal("the stream has no FeatureNames")
	}
	if got := named.FeatureNames(); !slices.Equal(got, []string{"a"}) {
		t.Errorf("CSV feature names %q, want [a]", got)
	}
	g, err := Load("covcon-d", Options{})
	if err != nil {
		t.Fatal(err)
	}
	gs, _ := g.Stream(0)
	if got := gs.(interface{ FeatureNames() []string }).FeatureNames(); got != nil {
		t.Errorf("generated data named %q, want none", got)
	}
}
