// Command svgcells pins every character of a terminal screenshot made by freeze (as SVG) to its
// terminal cell. freeze writes each line as runs of text and lets the font place the characters;
// a glyph the font lacks (braille, in the player's charts) comes from a fallback font of another
// width and shifts the rest of the line. Given each character its own x, the columns hold.
//
//	freeze -l ansi -o shot.svg < shot.ansi
//	go run ./scripts/svgcells < shot.svg > fixed.svg
//	rsvg-convert -z 3 -o shot.png fixed.svg
package main

import (
	"bufio"
	"flag"
	"fmt"
	"html"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

var (
	textRe  = regexp.MustCompile(`(?s)<text([^>]*?)(?:/>|>(.*?)</text>)`)
	xRe     = regexp.MustCompile(`\bx="([0-9.]+)(px)?"`)
	tspanRe = regexp.MustCompile(`(?s)<tspan([^>]*?)(?:/>|>(.*?)</tspan>)`)
	dxRe    = regexp.MustCompile(`\s*\bdx="[^"]*"`)
)

func main() {
	size := flag.Float64("font-size", 14, "the font size freeze was given")
	flag.Parse()
	in, err := io.ReadAll(bufio.NewReader(os.Stdin))
	if err != nil {
		fmt.Fprintln(os.Stderr, "svgcells:", err)
		os.Exit(1)
	}
	// freeze's cell width: the font size over its height-to-width ratio of 1.68.
	cell := *size / 1.68
	out := textRe.ReplaceAllStringFunc(string(in), func(text string) string {
		m := textRe.FindStringSubmatch(text)
		attrs, body := m[1], m[2]
		xm := xRe.FindStringSubmatch(attrs)
		if xm == nil || strings.HasSuffix(text, "/>") {
			return text
		}
		x0, _ := strconv.ParseFloat(xm[1], 64)
		col := 0
		var b strings.Builder
		for _, sm := range tspanRe.FindAllStringSubmatch(body, -1) {
			sattrs := dxRe.ReplaceAllString(sm[1], "")
			for _, r := range html.UnescapeString(sm[2]) {
				fmt.Fprintf(&b, `<tspan%s x="%.2f">%s</tspan>`, sattrs, x0+float64(col)*cell, html.EscapeString(string(r)))
				col += max(ansi.StringWidth(string(r)), 1)
			}
		}
		return "<text" + attrs + ">" + b.String() + "</text>"
	})
	if _, err := io.WriteString(os.Stdout, out); err != nil {
		fmt.Fprintln(os.Stderr, "svgcells:", err)
		os.Exit(1)
	}
}
