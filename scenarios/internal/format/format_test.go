package format

import (
	"strings"
	"testing"
)

// An error is placed where its value came from: file:line:column for the file's own text, the
// --set (or the flag standing for one) for a value of the command line, and an unknown key with
// the keys its section knows.
func TestPlaces(t *testing.T) {
	src := []byte("name: n\nbatches: 3\nkernel: {gamma: scale}\n")
	doc := NewDoc("f.yaml", []Override{{Path: "kernel.gamma", Value: "2"}, {Path: "retrain_cost", Value: "-1", Flag: "-R -1"}})
	f, err := doc.Decode(src)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kernel.Gamma.Text != "2" || f.RetrainCost.Text != "-1" || f.Batches.Text != "3" {
		t.Fatalf("decoded gamma %q, retrain_cost %q, batches %q", f.Kernel.Gamma.Text, f.RetrainCost.Text, f.Batches.Text)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{f.Batches.Errorf("batches", "is too few"), "f.yaml:2:10: batches: is too few"},
		// The --set's path says where: the field is dropped from the message.
		{f.Kernel.Gamma.Errorf("kernel.gamma", "is bad"), "--set kernel.gamma: is bad"},
		{f.RetrainCost.Errorf("retrain_cost", "must be >= 0"), "-R -1: must be >= 0"},
		{doc.Required("$.data", "data"), "f.yaml:1:1: data: is required"},
		{doc.At("$.kernel.gamma").Errorf("kernel.gamma", "here"), "--set kernel.gamma: here"},
	} {
		if got := doc.Wrap(tc.err).Error(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	u := NewDoc("u.yaml", nil)
	_, err = u.Decode([]byte("name: n\nkernel: {gama: 2}\n"))
	if got, want := u.Wrap(err).Error(), `u.yaml:2:10: kernel: unknown field "gama" (known: gamma, standardize)`; got != want {
		t.Errorf("unknown key:\n got  %s\n want %s", got, want)
	}
}

// Merged is the file with the overrides written in, its comments kept; Flow writes a section on
// one line, as a --set takes it.
func TestMergedAndFlow(t *testing.T) {
	src := []byte("# a comment\nname: n\nretrain_cost: 1\n")
	out, err := Merged(src, []Override{{Path: "retrain_cost", Value: "4"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); !strings.Contains(s, "# a comment") || !strings.Contains(s, "retrain_cost: 4") || strings.Contains(s, "retrain_cost: 1") {
		t.Errorf("merged:\n%s", s)
	}
	if out, _ := Merged(src, nil); string(out) != string(src) {
		t.Errorf("no overrides: %q", out)
	}
	doc := NewDoc("w.yaml", nil)
	if _, err := doc.Decode([]byte("name: n\nwhatif:\n  queries:\n    - name: corner\n      size: 5\n      gaussian: {mean: [0.1, 0.9], std: 0.05}\n")); err != nil {
		t.Fatal(err)
	}
	text, place := doc.Flow("whatif.queries[0]", "name")
	if want := "{size: 5, gaussian: {mean: [0.1, 0.9], std: 0.05}}"; text != want || place.Line != 4 || place.Col != 7 {
		t.Errorf("flow %q at %d:%d, want %q at 4:7", text, place.Line, place.Col, want)
	}
}

func TestParseOverride(t *testing.T) {
	if o, err := ParseOverride(" kernel.gamma =2"); err != nil || o.Path != "kernel.gamma" || o.Value != "2" {
		t.Errorf("got %+v, %v", o, err)
	}
	for _, bad := range []string{"gamma", "=2", "kernel..gamma=2"} {
		if _, err := ParseOverride(bad); err == nil || !strings.HasPrefix(err.Error(), "--set ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for path, want := range map[string]bool{"queries": true, "queries.size": true, " kernel.gamma": true, "retrain_cost": true, "data.size": false, "model": false} {
		if Replayable(path) != want {
			t.Errorf("Replayable(%q) = %v", path, !want)
		}
	}
}

// Issue 33: a whole number too large for an int (20 digits, 1e30) says it is too large, one
// written with an exponent says to write it in digits; neither is "not a whole number".
func TestIntMessages(t *testing.T) {
	for _, tc := range []struct {
		text   string
		lo, hi int
		want   string
	}{
		{"12345678901234567890", 0, MaxInt, "1:1: seed: must be in 0..9223372036854775807, got 12345678901234567890: too large"},
		{"1e30", 0, MaxInt, "1:1: seed: must be in 0..9223372036854775807, got 1e30: too large"},
		{"1e30", 2, 1_000_000, "1:1: seed: must be in 2..1000000, got 1e30: too large"},
		{"-1e30", 0, MaxInt, "1:1: seed: must be >= 0, got -1e30: too small"},
		{"-99999999999999999999", 0, 10, "1:1: seed: must be in 0..10, got -99999999999999999999: too small"},
		{"1e3", 0, MaxInt, "1:1: seed: must be a whole number written in digits, got 1e3 (write 1000)"},
		{"1.5", 0, MaxInt, `1:1: seed: must be a whole number, got "1.5"`},
		{"ten", 0, MaxInt, `1:1: seed: must be a whole number, got "ten"`},
		{"11", 0, 10, "1:1: seed: must be in 0..10, got 11"},
	} {
		_, err := Scalar{Set: true, Text: tc.text, Line: 1, Col: 1}.Int("seed", tc.lo, tc.hi)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s in %d..%d:\n got  %v\n want %s", tc.text, tc.lo, tc.hi, err, tc.want)
		}
	}
	if n, err := (Scalar{Set: true, Text: "9223372036854775807"}).Int("seed", 0, MaxInt); err != nil || n != MaxInt {
		t.Errorf("the largest int: %d, %v", n, err)
	}
}
