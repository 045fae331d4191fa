package scenarios

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
)

// Identity names what a scenario was read from: its file's name, folder and text, every override
// (--set, a flag), the --data and --queries files, each CSV file it read and the files of a model
// from outside (a predictions file, a command's script), by their size and modification time:
// reading a large CSV again to hash it would cost as much as loading it. Two
// loads with the same identity are the same scenario, number for number; a file edited (or a CSV
// it reads) gives another. "" for a scenario not read by Load or Parse.
func (s *Scenario) Identity() string { return s.identity }

func (l *loader) identity() string {
	h := sha256.New()
	field := func(v string) { fmt.Fprintf(h, "%d:%s;", len(v), v) }
	field(l.doc.File)
	field(l.dir)
	field(string(l.src))
	field(l.opt.Data)
	field(l.opt.Queries)
	for _, o := range l.doc.Sets {
		field(o.Path)
		field(o.Value)
		field(o.Flag)
		field(o.Under)
	}
	for _, path := range append(slices.Clip(l.streams.Files), l.outside.files()...) {
		field(path)
		if st, err := os.Stat(path); err == nil {
			field(fmt.Sprint(st.Size(), st.ModTime().UnixNano()))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
