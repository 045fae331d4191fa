// Command tapegif records a vhs tape (charmbracelet/vhs's .tape files) where vhs cannot run: vhs
// draws the terminal in a browser through ttyd, and ttyd is neither a Debian package of this
// machine's suites nor anything its registries serve. tapegif plays the same tape in a private
// tmux session instead, captures the pane (`tmux capture-pane -e`) at the tape's frame rate while
// it is shown, renders each distinct screen with charmbracelet/freeze and assembles the GIF with
// ffmpeg.
//
//	go run ./scripts/tapegif docs/cara.tape          # scripts/gif.sh runs vhs instead when ttyd is there
//
// It takes what the tape says about the recording (Output, Require, Env, Type, Sleep, the key
// commands, Ctrl+ and Alt+ keys, Hide, Show, Wait, Screenshot; Set Shell (bash), Width, Height,
// Padding, FontSize, LineHeight, Framerate, PlaybackSpeed, TypingSpeed, WaitTimeout, WaitPattern)
// and says which settings it leaves to vhs (Theme, FontFamily, window decorations): those change
// how vhs draws, not what the program shows. The terminal's columns and rows come from Width,
// Height, Padding and FontSize as vhs's would with its default font (a cell of 0.6 x 1.32 em);
// the GIF is Width pixels wide and as high as the screen's aspect makes it.
//
// Needs tmux, freeze (go install github.com/charmbracelet/freeze@latest) and ffmpeg. freeze's own
// PNG renderer has no braille glyphs; with rsvg-convert (apt-get install librsvg2-bin) the frames
// are drawn from freeze's SVG instead, each character pinned to its cell by -svgcells (the built
// scripts/svgcells) when given.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// tape is a parsed tape's settings; its commands run in order.
type tape struct {
	output      string
	screenshots []string
	requires    []string
	env         []string
	shell       string
	fontSize    int
	width       int
	height      int
	padding     int
	lineHeight  float64
	framerate   int
	playback    float64
	typing      time.Duration
	waitTimeout time.Duration
	waitPattern *regexp.Regexp
	ignored     []string
	cmds        []command
}

// vhs's defaults (v0.10.0).
func newTape() *tape {
	return &tape{
		shell: "bash", fontSize: 22, width: 1200, height: 600, padding: 60, lineHeight: 1,
		framerate: 50, playback: 1, typing: 50 * time.Millisecond, waitTimeout: 15 * time.Second,
		waitPattern: regexp.MustCompile(`>$`),
	}
}

// load reads a tape's settings from its commands. Values were checked by the parser.
func load(name, src string) (*tape, error) {
	cmds, err := parse(name, src)
	if err != nil {
		return nil, err
	}
	t := newTape()
	t.cmds = cmds
	for _, c := range cmds {
		switch c.name {
		case "Output":
			if t.output != "" {
				return nil, fmt.Errorf("%s:%v: a second Output; the fallback writes one GIF", name, c.pos)
			}
			if filepath.Ext(c.arg) != ".gif" {
				return nil, fmt.Errorf("%s:%v: Output %s: the fallback writes a .gif (vhs also writes .mp4 and .webm)", name, c.pos, c.arg)
			}
			t.output = c.arg
		case "Screenshot":
			t.screenshots = append(t.screenshots, c.arg)
		case "Require":
			t.requires = append(t.requires, c.arg)
		case "Env":
			t.env = append(t.env, c.arg+"="+c.value)
		case "Set":
			if err := t.set(c.arg, c.value); err != nil {
				return nil, fmt.Errorf("%s:%v: Set %s: %v", name, c.pos, c.arg, err)
			}
		}
	}
	if t.output == "" {
		return nil, fmt.Errorf("%s: no Output: where should the GIF go?", name)
	}
	if t.cols() < 10 || t.rows() < 5 {
		return nil, fmt.Errorf("%s: Width %d, Height %d, Padding %d and FontSize %d leave a %dx%d terminal", name, t.width, t.height, t.padding, t.fontSize, t.cols(), t.rows())
	}
	return t, nil
}

func (t *tape) set(name, value string) error {
	if !settings[name] {
		t.ignored = append(t.ignored, name)
		return nil
	}
	ints := map[string]*int{"FontSize": &t.fontSize, "Width": &t.width, "Height": &t.height, "Padding": &t.padding, "Framerate": &t.framerate}
	floats := map[string]*float64{"LineHeight": &t.lineHeight, "PlaybackSpeed": &t.playback}
	times := map[string]*time.Duration{"TypingSpeed": &t.typing, "WaitTimeout": &t.waitTimeout}
	if p, ok := ints[name]; ok {
		*p, _ = strconv.Atoi(value)
	} else if p, ok := floats[name]; ok {
		*p, _ = strconv.ParseFloat(value, 64)
	} else if p, ok := times[name]; ok {
		*p, _ = duration(value)
	} else if name == "WaitPattern" {
		t.waitPattern = regexp.MustCompile(strings.TrimPrefix(value, "/"))
	} else if name == "Shell" && value != "bash" {
		return fmt.Errorf("the fallback runs bash, not %s", value)
	}
	return nil
}

// cols and rows: the terminal vhs would fit into Width x Height less the padding, with its default
// font, JetBrains Mono, whose cell is 0.6 em wide and 1.32 em high.
func (t *tape) cols() int {
	return int(math.Floor(float64(t.width-2*t.padding) / (0.6 * float64(t.fontSize))))
}

func (t *tape) rows() int {
	return int(math.Floor(float64(t.height-2*t.padding) / (1.32 * float64(t.fontSize) * t.lineHeight)))
}

func main() {
	frames := flag.String("frames", "", "keep the captured screens (.ansi) and frames (.png) in this folder")
	svgcells := flag.String("svgcells", "", "the built scripts/svgcells, to pin each character of a frame to its cell")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tapegif [-frames DIR] [-svgcells BIN] FILE.tape")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *frames, *svgcells); err != nil {
		fmt.Fprintln(os.Stderr, "tapegif:", err)
		os.Exit(1)
	}
}

func run(path, framesDir, svgcells string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	t, err := load(path, string(src))
	if err != nil {
		return err
	}
	for _, s := range t.ignored {
		fmt.Fprintf(os.Stderr, "tapegif: Set %s is vhs's look; the fallback leaves it\n", s)
	}
	for _, p := range append([]string{"tmux", "ffmpeg"}, t.requires...) {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Errorf("%s is not on the PATH", p)
		}
	}
	r, err := newRenderer(t, framesDir, svgcells)
	if err != nil {
		return err
	}
	defer r.close()
	fmt.Fprintf(os.Stderr, "tapegif: %s in a %dx%d terminal, %d frames a second\n", path, t.cols(), t.rows(), t.framerate)
	start := time.Now()
	rec, err := record(t)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "tapegif: recorded %d screens (%d distinct) in %.1fs; rendering\n", len(rec.frames), rec.distinct(), time.Since(start).Seconds())
	if err := r.gif(rec); err != nil {
		return err
	}
	for _, s := range rec.shots {
		if err := r.png(s.ansi, s.path); err != nil {
			return err
		}
	}
	st, err := os.Stat(t.output)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "tapegif: wrote %s (%.2f MB, %.1f s)\n", t.output, float64(st.Size())/1e6, rec.length().Seconds()/t.playback)
	return nil
}
