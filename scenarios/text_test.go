package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileText holds what a scenario could use to drive a terminal: clear the screen (CSI 2J),
// set the window title (OSC 0 ... BEL), a C1 CSI, a right-to-left override, a carriage return
// that would overwrite the line.
const hostileText = "\x1b[2J\x1b]0;pwned\x07 \u009b31m \u202eevil\rX"

// Issue 26, item 12: text a scenario supplies reaches no terminal as control characters: title,
// about and a tour's say (written with YAML escapes and as raw bytes), a what-if name, and a
// CSV's column names and categories are escaped at load, with a note.
func TestUntrustedTextEscaped(t *testing.T) {
	dir := t.TempDir()
	// A few control bytes among text: more than 1 % would be refused as binary.
	csv := "x,\x1b[2Jcolour,y\n1,red\x1b]0;pwned\x07,0\n2,blue,1\n3,red\x1b]0;pwned\x07,0\n4,blue,1\n" +
		strings.Repeat("5,blue,1\n6,blue,0\n", 40)
	os.WriteFile(filepath.Join(dir, "d.csv"), []byte(csv), 0o644)
	src := "name: evil\n" +
		`title: "\e[2J\e]0;pwned\a Title"` + "\n" +
		"about: |\n  line one \x1b[31mred\n  line two\n" +
		"batches: 2\noffline: 1\n" +
		"data: {csv: d.csv, label: y}\n" +
		"queries: {from: data, size: 1}\n" +
		"model: {nearest_centroid: {}}\nretrain_cost: 1\n" +
		"whatif:\n  queries:\n    - {name: \"\\e]0;pwned\\a\", from: data, size: 2}\n" +
		"tour:\n  - {at: 1, say: \"" + strings.NewReplacer("\x1b", `\e`, "\x07", `\a`, "\r", `\r`, "\u009b", `\x9b`).Replace(hostileText) + "\"}\n"
	path := filepath.Join(dir, "evil.yaml")
	os.WriteFile(path, []byte(src), 0o644)
	s, err := Load(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stream(s.Seed)
	names := st.(interface{ FeatureNames() []string }).FeatureNames()
	texts := map[string]string{"title": s.Title, "about": s.About, "say": s.Tour[0].Say, "what-if name": s.WhatIfQueries[0].Name,
		"feature names": strings.Join(names, ",")}
	for field, text := range texts {
		for _, r := range text {
			if clean, _ := CleanText(string(r), true); clean != string(r) {
				t.Errorf("%s: %q still holds %U", field, text, r)
			}
		}
	}
	want := map[string]string{
		"title":         `\x1b[2J\x1b]0;pwned\x07 Title`,
		"about":         "line one \\x1b[31mred\nline two",
		"say":           `\x1b[2J\x1b]0;pwned\x07 \x9b31m \u202eevil\x0dX`,
		"what-if name":  `\x1b]0;pwned\x07`,
		"feature names": `x,\x1b[2Jcolour=red\x1b]0;pwned\x07,\x1b[2Jcolour=blue`,
	}
	for field, w := range want {
		if texts[field] != w {
			t.Errorf("%s:\n got  %q\n want %q", field, texts[field], w)
		}
	}
	if notes := strings.Join(s.Notes, "\n"); !strings.Contains(notes, "title: 3 control character(s)") || !strings.Contains(notes, "tour[0].say: 6 control character(s)") || !strings.Contains(notes, "d.csv: 4 control character(s)") {
		t.Errorf("notes:\n%s", notes)
	}
}

func TestSafeFileName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"covcon-d", "covcon-d"},
		{"../escaped", "_._escaped"},
		{"/etc/passwd", "_etc_passwd"},
		{".hidden", "_hidden"},
		{"-rf", "_rf"},
		{"a b\x1b", "a_b_"},
		{"", "_"},
		{"é", "_"},
	} {
		if got := SafeFileName(tc.in); got != tc.want {
			t.Errorf("SafeFileName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Issue 33: a name too long for a file name fails at load (so at validate), not when the end of
// `run --figures` writes NAME-cumulative.png.
func TestLongNameFailsAtLoad(t *testing.T) {
	long := strings.Repeat("n", 300)
	src := strings.Replace(string(Template("x")), "name: x", "name: "+long, 1)
	_, err := Parse("long.yaml", []byte(src), t.TempDir(), Options{})
	want := `long.yaml:5:7: name: "` + strings.Repeat("n", 40) + `..." is not a usable scenario name: it is 300 characters, and a name is at most 100`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v\nwant %s...", err, want)
	}
	if ValidName(long) || !ValidName(long[:MaxNameLen]) {
		t.Errorf("ValidName: 300 characters %v, %d characters %v", ValidName(long), MaxNameLen, ValidName(long[:MaxNameLen]))
	}
	// The longest name still makes file names the file system takes, with the longest suffix a
	// run writes.
	f, err := os.Create(filepath.Join(t.TempDir(), SafeFileName(long[:MaxNameLen])+"-cumulative.svg"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
