package scenarios

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The catalog reads its entries once and loads each scenario once, for everyone: a file once,
// when the catalog is read.
func TestCatalogReadsOnce(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	path := filepath.Join(dir, "small.yaml")
	os.WriteFile(path, src, 0o644)
	c := NewCatalog(dir, nil)
	n := len(c.Entries())
	os.WriteFile(path, bytes.Replace(src, []byte("Small: a test scenario"), []byte("Changed"), 1), 0o644)
	os.WriteFile(filepath.Join(dir, "more.yaml"), src, 0o644)
	if len(c.Entries()) != n || !strings.Contains(c.Entries()[n-1].Title, "Small: a test scenario") {
		t.Errorf("the entries changed after the files did: %+v", c.Entries()[n-1])
	}
	a, err := c.Load(path)
	b, _ := c.Load(path)
	if err != nil || a != b {
		t.Errorf("two loads: %p %p %v, want one scenario", a, b, err)
	}
	// The file was loaded when the catalog was read (for its entry), not again when opened.
	if err == nil && a.Title != "Small: a test scenario" {
		t.Errorf("opened after an edit, the scenario is %q: the file was loaded twice", a.Title)
	}
	if again := NewCatalog(dir, nil); len(again.Entries()) != n+1 {
		t.Errorf("a new catalog (SIGHUP) has %d entries, want %d", len(again.Entries()), n+1)
	}
}

// Read again, a catalog gives the very scenario it gave before for a file that is unchanged (and
// for an embedded one), and a new one for a file edited; it offers only what it gives now.
func TestCatalogReload(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "small.yaml"))
	same, edited := filepath.Join(dir, "same.yaml"), filepath.Join(dir, "edited.yaml")
	os.WriteFile(same, src, 0o644)
	os.WriteFile(edited, src, 0o644)
	c := NewCatalog(dir, nil)
	a, _ := c.Load(same)
	b, _ := c.Load(edited)
	e, err := c.Load("circle-d")
	if err != nil {
		t.Fatal(err)
	}
	if a.Identity() == "" || a.Identity() == b.Identity() {
		t.Errorf("identities %q and %q: two files at two paths should differ", a.Identity(), b.Identity())
	}
	os.WriteFile(edited, bytes.Replace(src, []byte("retrain_cost: 0.5"), []byte("retrain_cost: 0.7"), 1), 0o644)
	c2 := c.Reload()
	a2, _ := c2.Load(same)
	b2, _ := c2.Load(edited)
	e2, _ := c2.Load("circle-d")
	if a2 != a || e2 != e {
		t.Error("an unchanged file, or an embedded scenario, is another scenario after Reload")
	}
	if b2 == b || b2.RetrainCost(0) != 0.7 {
		t.Errorf("the edited file: same scenario %v, R %v", b2 == b, b2.RetrainCost(0))
	}
	if !c2.Offers(a) || c2.Offers(b) || !c2.Offers(e) || !c2.Offers(b2) {
		t.Errorf("offers: unchanged %v, edited before %v, embedded %v, edited now %v", c2.Offers(a), c2.Offers(b), c2.Offers(e), c2.Offers(b2))
	}
	// A reading knows the scenarios of every one before it, not only of the last (which may never
	// have loaded them).
	if e4, _ := c2.Reload().Reload().Load("circle-d"); e4 != e {
		t.Error("an embedded scenario loaded two readings ago is another scenario")
	}
}

// From the repository's root `cara` offers ./scenarios/*.yaml: this package's folder, which holds
// no scenario file of its own (the template is template.yaml.tmpl), so the picker lists no broken
// entry there.
func TestRepositoryFolderOffersNothingBroken(t *testing.T) {
	for _, e := range NewCatalog(".", nil).Entries() {
		if _, err := Load(e.Ref, Options{}); err != nil {
			t.Errorf("the picker would offer %s, which does not load: %v", e.Ref, err)
		}
	}
}
