package scenarios

// A scenario's content hash: what a sweep file records with every row, so that resuming into a
// file written from another scenario (an edited file, another --set, changed CSV data) is an
// error rather than stale rows kept without a word.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/cara-sim/cara/sim"
)

// presentational are the top-level keys that change no number of a run's rows: text, the lesson,
// the what-if offers, which algorithms are listed (a row names its own), and the seed (a row
// names its own seed, and the sweep's seeds count from it).
var presentational = map[string]bool{"title": true, "about": true, "tour": true, "tour_seed": true, "whatif": true, "algorithms": true, "seed": true}

// contentHash hashes the resolved file (the YAML tree with every --set merged, comments and layout
// aside, map keys in order) and the numbers of every CSV table read, so the same content hashes
// the same however it is written.
func (l *loader) contentHash() []byte {
	h := sha256.New()
	if v, ok := l.doc.Value(); ok {
		if m, ok := v.(map[string]any); ok {
			for k := range presentational {
				delete(m, k)
			}
			if d, ok := m["detectors"].(map[string]any); ok {
				delete(d, "run") // which detectors are listed, as algorithms
				if len(d) == 0 {
					delete(m, "detectors")
				}
			}
		}
		fmt.Fprintf(h, "%#v\n", v) // fmt prints maps sorted by key
	} else { // not a mapping: the decoder refused it already; hash what was read
		h.Write(l.src)
		for _, o := range l.doc.Sets {
			fmt.Fprintf(h, "\x00%s=%s", o.Path, o.Value)
		}
	}
	l.streams.Digest(h)
	l.outside.digest(h)
	return h.Sum(nil)
}

// Hash identifies what the scenario computes: its resolved file and data (--set, --data and
// --queries included) and the model, kernel and detector options as they are now (a command line
// flag may have changed them after loading). Scenarios with one Hash give the same numbers for the
// same seed and retraining cost. It is 16 hex digits.
func (s *Scenario) Hash() string {
	model := s.Model
	if rf, ok := model.(sim.RandomForest); ok {
		rf.Workers = 0 // the forest is the same for any number of workers
		model = rf
	}
	h := sha256.New()
	h.Write(s.content)
	fmt.Fprintf(h, "\x00%#v\x00%#v\x00%#v\x00%d %d %d", model, s.Gamma, s.Evaluation, s.Batches, s.Offline, s.Features)
	if s.Outside != nil { // its content is in s.content; a pointer's %#v is its address
		fmt.Fprintf(h, "\x00%s", s.Outside.Name())
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// RunKey is what makes two loads of a scenario the same run (with the same seed): its Hash, for a
// scenario read from text, so that two students who make the same change share one computation;
// "" for one built by hand, which only itself matches.
func (s *Scenario) RunKey() string {
	if s.content == nil {
		return ""
	}
	return s.Hash()
}
