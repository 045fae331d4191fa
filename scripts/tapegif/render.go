package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	xansi "github.com/charmbracelet/x/ansi"
)

// renderer turns captured screens into PNGs (freeze, and rsvg-convert when there is one) and a
// recording into a GIF (ffmpeg).
type renderer struct {
	t        *tape
	dir      string // the frames' folder
	temp     bool   // dir is ours to remove
	freeze   string
	rsvg     string
	svgcells string
}

func newRenderer(t *tape, dir, svgcells string) (*renderer, error) {
	r := &renderer{t: t, dir: dir, svgcells: svgcells}
	r.freeze = lookPath("freeze", filepath.Join(goBin(), "freeze"))
	if r.freeze == "" {
		return nil, fmt.Errorf("freeze is not on the PATH nor in %s (go install github.com/charmbracelet/freeze@latest)", goBin())
	}
	r.rsvg = lookPath("rsvg-convert", "")
	if r.rsvg == "" {
		fmt.Fprintln(os.Stderr, "tapegif: no rsvg-convert: freeze draws braille as boxes (apt-get install librsvg2-bin)")
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "tapegif-")
		if err != nil {
			return nil, err
		}
		r.dir, r.temp = d, true
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *renderer) close() {
	if r.temp {
		os.RemoveAll(r.dir)
	}
}

func goBin() string {
	if b := os.Getenv("GOBIN"); b != "" {
		return b
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return ""
	}
	return filepath.Join(strings.TrimSpace(string(out)), "bin")
}

func lookPath(name, fallback string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if fallback != "" {
		if st, err := os.Stat(fallback); err == nil && !st.IsDir() {
			return fallback
		}
	}
	return ""
}

// The colours freeze draws for the terminal's default foreground and background: its own.
const (
	defaultFg = "38;2;197;200;198"
	defaultBg = "48;2;23;23;23"
)

// explicitDefaults rewrites "default foreground" (SGR 39) and "default background" (49), which
// tmux writes wherever a colour ends and freeze ignores (the colour before would run on), as
// freeze's own default colours. The numbers inside a 38 or 48 colour are left alone.
func explicitDefaults(ansi string) string {
	var b strings.Builder
	for {
		i := strings.Index(ansi, "\x1b[")
		if i < 0 {
			b.WriteString(ansi)
			return b.String()
		}
		j := i + 2
		for j < len(ansi) && (ansi[j] >= '0' && ansi[j] <= '9' || ansi[j] == ';') {
			j++
		}
		if j >= len(ansi) || ansi[j] != 'm' {
			b.WriteString(ansi[:j])
			ansi = ansi[j:]
			continue
		}
		b.WriteString(ansi[:i+2])
		params := strings.Split(ansi[i+2:j], ";")
		for k := 0; k < len(params); k++ {
			if k > 0 {
				b.WriteByte(';')
			}
			switch p := params[k]; p {
			case "39":
				b.WriteString(defaultFg)
			case "49":
				b.WriteString(defaultBg)
			case "38", "48", "58":
				// 5;N or 2;R;G;B follow: copy them as they are.
				n := 0
				if k+1 < len(params) {
					switch params[k+1] {
					case "5":
						n = 2
					case "2":
						n = 4
					}
				}
				b.WriteString(strings.Join(params[k:min(k+1+n, len(params))], ";"))
				k += n
			default:
				b.WriteString(p)
			}
		}
		b.WriteByte('m')
		ansi = ansi[j+1:]
	}
}

// fill pads every line of a screen to the terminal's width and the screen to its height: freeze
// draws what it is given, and tmux leaves out trailing blanks.
func fill(ansi string, cols, rows int) string {
	lines := strings.Split(strings.TrimSuffix(ansi, "\n"), "\n")
	for len(lines) < rows {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if w := xansi.StringWidth(l); w < cols {
			lines[i] = l + "\x1b[0m" + strings.Repeat(" ", cols-w)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// png renders one screen to a PNG at path, the tape's Width wide.
func (r *renderer) png(ansi, path string) error {
	base := strings.TrimSuffix(path, filepath.Ext(path))
	in := strings.NewReader(explicitDefaults(fill(ansi, r.t.cols(), r.t.rows())))
	size := strconv.Itoa(r.t.fontSize)
	pad := strconv.Itoa(r.t.padding)
	if r.rsvg == "" {
		return runIn(in, r.freeze, "-l", "ansi", "--font.size", size, "--padding", pad, "-o", path)
	}
	svg := base + ".svg"
	if err := runIn(in, r.freeze, "-l", "ansi", "--font.size", size, "--padding", pad, "-o", svg); err != nil {
		return err
	}
	defer os.Remove(svg)
	if r.svgcells != "" {
		b, err := os.ReadFile(svg)
		if err != nil {
			return err
		}
		cmd := exec.Command(r.svgcells, "-font-size", size)
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("%s: %v", r.svgcells, err)
		}
		if err := os.WriteFile(svg, out, 0o644); err != nil {
			return err
		}
	}
	return runIn(nil, r.rsvg, "-w", strconv.Itoa(r.t.width), "-o", path, svg)
}

func runIn(stdin *strings.Reader, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v: %s", filepath.Base(name), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// gif renders each distinct screen once and has ffmpeg show each for as long as it was on the
// screen (over PlaybackSpeed), in one 256-colour palette.
func (r *renderer) gif(rec *recording) error {
	type still struct {
		png  string
		secs float64
	}
	var stills []still
	todo := map[string]string{} // png -> ansi
	for i, f := range rec.frames {
		end := rec.end
		if i+1 < len(rec.frames) {
			end = rec.frames[i+1].at
		}
		secs := (end - f.at).Seconds() / r.t.playback
		sum := sha256.Sum256([]byte(f.ansi))
		png := filepath.Join(r.dir, hex.EncodeToString(sum[:8])+".png")
		if n := len(stills); n > 0 && stills[n-1].png == png {
			stills[n-1].secs += secs
			continue
		}
		stills = append(stills, still{png, secs})
		if _, ok := todo[png]; !ok {
			todo[png] = f.ansi
			if r.dir != "" && !r.temp {
				_ = os.WriteFile(strings.TrimSuffix(png, ".png")+".ansi", []byte(f.ansi), 0o644)
			}
		}
	}
	if err := r.renderAll(todo); err != nil {
		return err
	}
	var list strings.Builder
	for _, s := range stills {
		fmt.Fprintf(&list, "file '%s'\nduration %.3f\n", s.png, s.secs)
	}
	listPath := filepath.Join(r.dir, "frames.txt")
	if err := os.WriteFile(listPath, []byte(list.String()), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.t.output), 0o755); err != nil {
		return err
	}
	// Opaque frames (rgb24: with an alpha channel the encoder cannot mark what did not change as
	// transparent, and every frame is whole), each kept for as long as it was on the screen (vfr), in
	// one palette: a frame then costs what changed in it.
	filter := fmt.Sprintf("format=rgb24,scale=%d:-2:flags=lanczos,split[a][b];[a]palettegen=max_colors=256:stats_mode=diff[p];[b][p]paletteuse=dither=none:diff_mode=rectangle",
		r.t.width)
	return runIn(nil, "ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", listPath,
		"-vf", filter, "-fps_mode", "vfr", "-gifflags", "+transdiff+offsetting",
		// The last frame's delay: the concat demuxer forgets its duration, and the muxer would
		// repeat the one before's.
		"-final_delay", strconv.Itoa(int(math.Round(stills[len(stills)-1].secs*100))), "-loop", "0", r.t.output)
}

// renderAll renders the screens two at a time: freeze and rsvg-convert each take a core.
func (r *renderer) renderAll(todo map[string]string) error {
	type job struct{ png, ansi string }
	jobs := make(chan job)
	errs := make(chan error, len(todo))
	var wg sync.WaitGroup
	for range min(2, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if err := r.png(j.ansi, j.png); err != nil {
					errs <- err
				}
			}
		}()
	}
	done := 0
	for png, ansi := range todo {
		jobs <- job{png, ansi}
		if done++; done%25 == 0 {
			fmt.Fprintf(os.Stderr, "tapegif: rendered %d of %d screens\r", done, len(todo))
		}
	}
	close(jobs)
	wg.Wait()
	fmt.Fprintf(os.Stderr, "tapegif: rendered %d screens          \n", len(todo))
	close(errs)
	return <-errs
}
