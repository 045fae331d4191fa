package streams

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The CSV reader takes users' files: whatever the bytes, it returns a table or an error that names
// the file, never panics, never hangs.
func FuzzReadTable(f *testing.F) {
	f.Add("a,b,y\n1,2,0\n3,4,1\n")
	f.Add("batch,x,colour,label\n1,0.5,red,UP\n1,1.5,blue,DOWN\n2,2.5,red,UP\n")
	f.Add("a,y\n\"1,2\",0\n")
	f.Add("a,y\nNaN,1\n")
	f.Fuzz(func(t *testing.T, body string) {
		p := filepath.Join(t.TempDir(), "f.csv")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opt := range []TableOptions{{Label: "y"}, {Label: "label", BatchColumn: "batch"}, {}} {
			tab, err := ReadTable(p, opt)
			if err != nil {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("error does not name the file: %v", err)
				}
				continue
			}
			if tab.X.Len()*tab.X.D != len(tab.X.V) || (tab.Y != nil && len(tab.Y) != tab.X.Len()) {
				t.Errorf("inconsistent table: %d values, d %d, %d labels", len(tab.X.V), tab.X.D, len(tab.Y))
			}
			tab.Split(3)
		}
	})
}
