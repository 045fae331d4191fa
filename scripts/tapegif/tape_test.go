package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The README's tape is one the fallback plays, in the terminal the guides' screenshots use (120x36).
func TestReadmeTape(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "docs", "cara.tape"))
	if err != nil {
		t.Fatal(err)
	}
	tp, err := load("cara.tape", string(src))
	if err != nil {
		t.Fatal(err)
	}
	if tp.output != "docs/cara.gif" || tp.cols() != 120 || tp.rows() != 36 || len(tp.requires) != 1 || tp.requires[0] != "cara" {
		t.Fatalf("output %q, %dx%d, requires %v", tp.output, tp.cols(), tp.rows(), tp.requires)
	}
	var shown time.Duration
	for _, c := range tp.cmds {
		if c.name == "Sleep" {
			shown += c.sleep
		}
	}
	if shown < 18*time.Second || shown > 30*time.Second {
		t.Errorf("the tape sleeps %v in all: the GIF should last 20 to 30 s", shown)
	}
}

func TestParse(t *testing.T) {
	tp, err := load("t.tape", `# a comment
Output out/x.gif
Set FontSize 10
Set Width 640 Set Height 400
Set Padding 0
Set Theme { "name": "x", "black": "#000000" }
Set WaitPattern /\$ $/
Env GREETING 'hi there'
Type@20ms "echo ${GREETING}" Sleep 0.5 Enter
Ctrl+C Alt+x Shift+Tab Ctrl+Alt+Enter
Down@100ms 3
Wait+Screen@5s /done #1/
Hide Type 'q' Show`)
	if err != nil {
		t.Fatal(err)
	}
	if tp.output != "out/x.gif" || tp.cols() != 106 || tp.rows() != 30 || tp.waitPattern.String() != `\$ $` ||
		len(tp.env) != 1 || tp.env[0] != "GREETING=hi there" || len(tp.ignored) != 1 || tp.ignored[0] != "Theme" {
		t.Fatalf("%+v (%dx%d)", tp, tp.cols(), tp.rows())
	}
	var got []string
	for _, c := range tp.cmds {
		switch c.name {
		case "Type":
			got = append(got, "Type "+c.arg+" @"+c.speed.String())
		case "Key":
			got = append(got, c.keys+" x"+string(rune('0'+c.count))+" @"+c.speed.String())
		case "Sleep":
			got = append(got, "Sleep "+c.sleep.String())
		case "Wait":
			got = append(got, "Wait "+c.scope+" "+c.wait.String()+" @"+c.speed.String())
		case "Hide", "Show":
			got = append(got, c.name)
		}
	}
	want := []string{
		"Type echo ${GREETING} @20ms", "Sleep 500ms", "Enter x1 @0s",
		"C-C x1 @0s", "M-x x1 @0s", "BTab x1 @0s", "C-M-Enter x1 @0s",
		"Down x3 @100ms", "Wait Screen done #1 @5s", "Hide", "Type q @0s", "Show",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A mistake in a tape names its place, as vhs's own errors do.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"Output x.gif\nType \"unclosed", `t.tape:2:6: " opens a string that does not close on its line`},
		{"Output x.gif\n  Frobnicate", "t.tape:2:3: Frobnicate: not a command the fallback knows"},
		{"Output x.gif\nSet Colour red", "t.tape:2:5: Set Colour: no such setting"},
		{"Output x.gif\nSet FontSize big", "t.tape:2:14: Set FontSize big: not a whole number > 0"},
		{"Output x.gif\nSleep forever", "t.tape:2:7: Sleep forever: not a time"},
		{"Output x.gif\nType q", "t.tape:2:6: Type takes a quoted string, got q"},
		{"Output x.gif\nSource other.tape", "t.tape:2:1: Source is vhs's, not the fallback's"},
		{"Output x.gif\nEnter 0", "t.tape:2:7: Enter 0: a key is pressed at least once"},
		{"Output x.gif\nCtrl+Hyper+x", "t.tape:2:1: Ctrl+Hyper+x: Hyper is not a modifier"},
		{"Output x.gif\nWait+Page /x/", "t.tape:2:1: Wait+Page: Wait takes +Line or +Screen"},
		{"Output x.mp4", "t.tape:1:1: Output x.mp4: the fallback writes a .gif"},
		{"Type \"x\"", "t.tape: no Output"},
		{"Output x.gif\nSet Shell fish", "t.tape:2:1: Set Shell: the fallback runs bash, not fish"},
		{"Output x.gif\nSet Width 100", "t.tape: Width 100, Height 600, Padding 60 and FontSize 22 leave a -2x16 terminal"},
	} {
		_, err := load("t.tape", tc.src)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s...", tc.src, err, tc.want)
		}
	}
}

func TestExplicitDefaults(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[39mx\x1b[49m":            "\x1b[" + defaultFg + "mx\x1b[" + defaultBg + "m",
		"\x1b[1;39;49m":                "\x1b[1;" + defaultFg + ";" + defaultBg + "m",
		"\x1b[38;5;39m\x1b[48;5;49m":   "\x1b[38;5;39m\x1b[48;5;49m", // colours 39 and 49 of 256
		"\x1b[38;2;39;49;39m":          "\x1b[38;2;39;49;39m",
		"\x1b[38;2;39;49;39;39m":       "\x1b[38;2;39;49;39;" + defaultFg + "m", // then the default
		"\x1b[0m\x1b[2J plain \x1b[39": "\x1b[0m\x1b[2J plain \x1b[39",          // not SGR, or cut short
	} {
		if got := explicitDefaults(in); got != want {
			t.Errorf("explicitDefaults(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFill(t *testing.T) {
	got := fill("\x1b[1mab\x1b[0m\n⠿⠿⠿\n", 4, 3)
	want := "\x1b[1mab\x1b[0m\x1b[0m  \n⠿⠿⠿\x1b[0m \n\x1b[0m    \n"
	if got != want {
		t.Errorf("fill = %q, want %q", got, want)
	}
}
