package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// A command is one instruction of a tape: its name as vhs spells it (Type, Sleep, Enter, Set, ...)
// and what it takes. pos is where it starts, for errors.
type command struct {
	pos   pos
	name  string
	arg   string         // Type's text, Output's or Screenshot's path, Require's program, Set's and Env's name
	value string         // Set's and Env's value
	keys  string         // a key press: the key in tmux's spelling (Enter, C-c, M-x, BTab)
	speed time.Duration  // Type@D, Enter@D: the time between key presses (0: the tape's TypingSpeed)
	count int            // Enter 3: how many presses
	sleep time.Duration  // Sleep's duration
	wait  *regexp.Regexp // Wait's pattern (nil: the tape's WaitPattern)
	scope string         // Wait's scope: Line (the default) or Screen
}

type pos struct{ line, col int }

func (p pos) String() string { return fmt.Sprintf("%d:%d", p.line, p.col) }

// keyNames maps vhs's key commands to tmux's key names.
var keyNames = map[string]string{
	"Enter": "Enter", "Space": "Space", "Backspace": "BSpace", "Delete": "DC", "Insert": "IC",
	"Up": "Up", "Down": "Down", "Left": "Left", "Right": "Right", "PageUp": "PPage",
	"PageDown": "NPage", "Tab": "Tab", "Escape": "Escape", "End": "End",
}

// settings is every setting vhs takes, true for those the fallback acts on; the others change how
// vhs draws, not what the program shows, and the fallback says it leaves them.
var settings = map[string]bool{
	"Shell": true, "FontSize": true, "FontFamily": false, "Height": true, "Width": true,
	"LetterSpacing": false, "LineHeight": true, "Framerate": true, "PlaybackSpeed": true,
	"TypingSpeed": true, "Padding": true, "Theme": false, "LoopOffset": false, "MarginFill": false,
	"Margin": false, "WindowBar": false, "WindowBarSize": false, "BorderRadius": false,
	"CursorBlink": false, "WaitTimeout": true, "WaitPattern": true,
}

// parse reads a tape as vhs's lexer does: words, quoted strings ("...", '...' or `...`), /regexps/
// after Wait, {JSON} after Set Theme, # comments to the end of a line; line breaks are only
// spaces, so `Type "q" Sleep 1s Enter` is three commands. name is the tape's file, for errors.
func parse(name, src string) ([]command, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, fmt.Errorf("%s:%v", name, err)
	}
	var cmds []command
	for i := 0; i < len(toks); {
		c, n, err := parseCommand(toks[i:])
		if err != nil {
			return nil, fmt.Errorf("%s:%v", name, err)
		}
		cmds = append(cmds, c)
		i += n
	}
	return cmds, nil
}

type token struct {
	pos    pos
	text   string
	quoted bool // a string, a /regexp/ or {JSON}: never a command
}

func lex(src string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	rs := []rune(src)
	for i := 0; i < len(rs); {
		r := rs[i]
		start := pos{line, col}
		advance := func(n int) {
			for _, c := range rs[i : i+n] {
				if c == '\n' {
					line, col = line+1, 1
				} else {
					col++
				}
			}
			i += n
		}
		prevWait := len(toks) > 0 && !toks[len(toks)-1].quoted && strings.HasPrefix(toks[len(toks)-1].text, "Wait")
		prevTheme := len(toks) > 1 && toks[len(toks)-1].text == "Theme" && toks[len(toks)-2].text == "Set"
		switch {
		case unicode.IsSpace(r):
			advance(1)
		case r == '#':
			j := i
			for j < len(rs) && rs[j] != '\n' {
				j++
			}
			advance(j - i)
		case r == '"' || r == '\'' || r == '`' || (r == '/' && prevWait):
			j := i + 1
			for j < len(rs) && rs[j] != r && rs[j] != '\n' {
				if r == '/' && rs[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(rs) || rs[j] != r {
				return nil, fmt.Errorf("%v: %c opens a string that does not close on its line", start, r)
			}
			text := string(rs[i+1 : j])
			if r == '/' {
				text = "/" + text
			}
			toks = append(toks, token{start, text, true})
			advance(j + 1 - i)
		case r == '{' && prevTheme:
			depth, j := 0, i
			for ; j < len(rs); j++ {
				if rs[j] == '{' {
					depth++
				} else if rs[j] == '}' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("%v: the theme's { does not close", start)
			}
			toks = append(toks, token{start, string(rs[i : j+1]), true})
			advance(j + 1 - i)
		default:
			j := i
			for j < len(rs) && !unicode.IsSpace(rs[j]) && rs[j] != '#' {
				j++
			}
			toks = append(toks, token{start, string(rs[i:j]), false})
			advance(j - i)
		}
	}
	return toks, nil
}

// parseCommand reads the command at toks[0] and returns it with the number of tokens it took.
func parseCommand(toks []token) (command, int, error) {
	t := toks[0]
	if t.quoted {
		return command{}, 0, fmt.Errorf("%v: %q is not a command (a Type before it?)", t.pos, t.text)
	}
	head, at, _ := strings.Cut(t.text, "@")
	c := command{pos: t.pos, name: head}
	arg := func(i int, what string) (token, error) {
		if i >= len(toks) {
			return token{}, fmt.Errorf("%v: %s needs %s", t.pos, head, what)
		}
		return toks[i], nil
	}
	if at != "" {
		d, err := duration(at)
		if err != nil {
			return c, 0, fmt.Errorf("%v: %s@%s: %v", t.pos, head, at, err)
		}
		c.speed = d
	}
	switch {
	case head == "Output" || head == "Require" || head == "Screenshot":
		a, err := arg(1, "a path or a program")
		if err != nil {
			return c, 0, err
		}
		c.arg = a.text
		return c, 2, nil
	case head == "Set":
		n, err := arg(1, "a setting")
		if err != nil {
			return c, 0, err
		}
		if _, ok := settings[n.text]; !ok {
			return c, 0, fmt.Errorf("%v: Set %s: no such setting", n.pos, n.text)
		}
		v, err := arg(2, "a value")
		if err != nil {
			return c, 0, err
		}
		c.arg, c.value = n.text, v.text
		if err := checkSetting(c.arg, c.value); err != nil {
			return c, 0, fmt.Errorf("%v: Set %s %s: %v", v.pos, c.arg, c.value, err)
		}
		return c, 3, nil
	case head == "Env":
		n, err := arg(1, "a name")
		if err != nil {
			return c, 0, err
		}
		v, err := arg(2, "a value")
		if err != nil {
			return c, 0, err
		}
		c.arg, c.value = n.text, v.text
		return c, 3, nil
	case head == "Sleep":
		v, err := arg(1, "a time")
		if err != nil {
			return c, 0, err
		}
		d, err := duration(v.text)
		if err != nil {
			return c, 0, fmt.Errorf("%v: Sleep %s: %v", v.pos, v.text, err)
		}
		c.sleep = d
		return c, 2, nil
	case head == "Type":
		v, err := arg(1, "a quoted string")
		if err != nil {
			return c, 0, err
		}
		if !v.quoted {
			return c, 0, fmt.Errorf("%v: Type takes a quoted string, got %s", v.pos, v.text)
		}
		c.arg = v.text
		return c, 2, nil
	case head == "Hide" || head == "Show":
		return c, 1, nil
	case head == "Wait" || strings.HasPrefix(head, "Wait+"):
		c.name, c.scope = "Wait", "Line"
		if s, ok := strings.CutPrefix(head, "Wait+"); ok {
			if s != "Line" && s != "Screen" {
				return c, 0, fmt.Errorf("%v: Wait+%s: Wait takes +Line or +Screen", t.pos, s)
			}
			c.scope = s
		}
		if len(toks) > 1 && toks[1].quoted && strings.HasPrefix(toks[1].text, "/") {
			re, err := regexp.Compile(toks[1].text[1:])
			if err != nil {
				return c, 0, fmt.Errorf("%v: Wait's pattern: %v", toks[1].pos, err)
			}
			c.wait = re
			return c, 2, nil
		}
		return c, 1, nil
	case head == "Source" || head == "Copy" || head == "Paste":
		return c, 0, fmt.Errorf("%v: %s is vhs's, not the fallback's: record this tape with vhs (it needs ttyd)", t.pos, head)
	}
	key, err := keyOf(head)
	if err != nil {
		return c, 0, fmt.Errorf("%v: %v", t.pos, err)
	}
	c.name, c.keys, c.count = "Key", key, 1
	if len(toks) > 1 && !toks[1].quoted {
		if n, err := strconv.Atoi(toks[1].text); err == nil {
			if n < 1 {
				return c, 0, fmt.Errorf("%v: %s %d: a key is pressed at least once", toks[1].pos, head, n)
			}
			c.count = n
			return c, 2, nil
		}
	}
	return c, 1, nil
}

// keyOf turns a key command (Enter, Ctrl+C, Alt+Enter, Shift+Tab, Ctrl+Alt+x) into tmux's name.
func keyOf(word string) (string, error) {
	if k, ok := keyNames[word]; ok {
		return k, nil
	}
	parts := strings.Split(word, "+")
	if len(parts) < 2 {
		return "", fmt.Errorf("%s: not a command the fallback knows (vhs's commands: Type, Sleep, Enter, Ctrl+C, Hide, ...)", word)
	}
	prefix := ""
	for _, m := range parts[:len(parts)-1] {
		switch m {
		case "Ctrl":
			prefix += "C-"
		case "Alt":
			prefix += "M-"
		case "Shift":
			prefix += "S-"
		default:
			return "", fmt.Errorf("%s: %s is not a modifier (Ctrl, Alt, Shift)", word, m)
		}
	}
	last := parts[len(parts)-1]
	if prefix == "S-" && last == "Tab" {
		return "BTab", nil
	}
	if k, ok := keyNames[last]; ok {
		return prefix + k, nil
	}
	if len([]rune(last)) != 1 {
		return "", fmt.Errorf("%s: %s is not a key", word, last)
	}
	return prefix + last, nil
}

// duration reads vhs's times: 500ms, 2s, 1m, or a bare number of seconds (0.5).
func duration(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil && f >= 0 {
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("not a time (500ms, 2s, 0.5)")
	}
	return d, nil
}

func checkSetting(name, value string) error {
	switch name {
	case "FontSize", "Width", "Height", "Framerate":
		if n, err := strconv.Atoi(value); err != nil || n <= 0 {
			return fmt.Errorf("not a whole number > 0")
		}
	case "Padding":
		if n, err := strconv.Atoi(value); err != nil || n < 0 {
			return fmt.Errorf("not a whole number >= 0")
		}
	case "LineHeight", "PlaybackSpeed":
		if f, err := strconv.ParseFloat(value, 64); err != nil || f <= 0 {
			return fmt.Errorf("not a number > 0")
		}
	case "TypingSpeed", "WaitTimeout":
		if _, err := duration(value); err != nil {
			return err
		}
	case "WaitPattern":
		if _, err := regexp.Compile(strings.TrimPrefix(value, "/")); err != nil {
			return err
		}
	}
	return nil
}
