package scenarios

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeCSV(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadTableErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"ragged", "a,b,y\n1,2,0\n1,2\n", "ragged.csv:3: row has 2 fields, header has 3"},
		{"three classes", "a,y\n1,x\n2,y\n3,z\n", `three classes.csv: label column "y" has 3 classes (x, y, z); exactly two are needed`},
		{"one class", "a,y\n1,x\n2,x\n", `one class.csv: label column "y" has one class only (x); two are needed`},
		{"empty", "", "empty.csv: the file is empty"},
		{"header only", "a,y\n", "header only.csv: only a header row"},
		{"missing label", "a,b\n1,2\n", `missing label.csv: no label column "y" (columns: a, b)`},
		{"NaN", "a,y\n1,0\nNaN,1\n", `NaN.csv:3:1: column "a": "NaN" is not a finite number`},
		{"Inf", "a,y\n+Inf,0\n1,1\n", `Inf.csv:2:1: column "a": "+Inf" is not a finite number`},
		{"unsorted batches", "batch,a,y\n0,1,0\n1,1,1\n0,2,0\n", `unsorted batches.csv:4:1: batch column "batch" is not sorted: 0 after 1`},
		{"bad batch", "batch,a,y\nx,1,0\n1,1,1\n", `bad batch.csv:2:1: batch column "batch": "x" is not a whole number`},
	}
	for _, tc := range tests {
		p := writeCSV(t, tc.name+".csv", tc.body)
		_, err := ReadTable(p, TableOptions{Label: "y", BatchColumn: map[bool]string{true: "batch"}[strings.HasPrefix(tc.body, "batch")]})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got  %v\n want ...%s", tc.name, err, tc.want)
		}
	}
}

func TestReadTableEncoding(t *testing.T) {
	p := writeCSV(t, "d.csv", "batch,x,colour,label\n1,0.5,red,UP\n1,1.5,blue,DOWN\n2,2.5,red,UP\n")
	tab, err := ReadTable(p, TableOptions{Label: "label", BatchColumn: "batch"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Features, []string{"x", "colour=red", "colour=blue"}) {
		t.Errorf("features %v", tab.Features)
	}
	// Non-numeric labels are sorted: DOWN is class 0, UP class 1.
	if tab.Classes != [2]string{"DOWN", "UP"} || !slices.Equal(tab.Y, []uint8{1, 0, 1}) {
		t.Errorf("classes %v labels %v", tab.Classes, tab.Y)
	}
	if !slices.Equal(tab.X.V, []float64{0.5, 1, 0, 1.5, 0, 1, 2.5, 1, 0}) {
		t.Errorf("X %v", tab.X.V)
	}
	r, _ := tab.Split(0)
	if !slices.Equal(r, [][2]int{{0, 2}, {2, 3}}) {
		t.Errorf("split by batch column %v", r)
	}
	// Queries line up with the data's encoding, whatever their column order.
	q := writeCSV(t, "q.csv", "colour,x,batch\nblue,7,1\nred,8,2\n")
	qt, err := ReadTable(q, TableOptions{BatchColumn: "batch", Like: tab})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(qt.X.V, []float64{7, 0, 1, 8, 1, 0}) || qt.Y != nil {
		t.Errorf("queries X %v Y %v", qt.X.V, qt.Y)
	}
	bad := writeCSV(t, "q2.csv", "x,batch\n1,1\n")
	if _, err := ReadTable(bad, TableOptions{BatchColumn: "batch", Like: tab}); err == nil || !strings.Contains(err.Error(), `no column "colour", which the data has`) {
		t.Errorf("queries missing a feature: %v", err)
	}
	// Without a batch column: nearly equal parts in order.
	n := writeCSV(t, "n.csv", "a,y\n1,0\n2,1\n3,0\n4,1\n5,0\n")
	nt, _ := ReadTable(n, TableOptions{Label: "y"})
	if r, err := nt.Split(2); err != nil || !slices.Equal(r, [][2]int{{0, 2}, {2, 5}}) {
		t.Errorf("equal split %v %v", r, err)
	}
	if _, err := nt.Split(6); err == nil {
		t.Error("6 batches of 5 rows: no error")
	}
}

func TestElectricity(t *testing.T) {
	p := filepath.Join("..", "..", "shared", "data", "electricity.csv")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s not found (the shared folder beside the checkout)", p)
	}
	tab, err := ReadTable(p, TableOptions{Label: "class"})
	if err != nil {
		t.Fatal(err)
	}
	if tab.X.Len() != 45312 || tab.X.D != 6 || tab.Classes != [2]string{"0", "1"} {
		t.Errorf("electricity: %d rows, %d features, classes %v", tab.X.Len(), tab.X.D, tab.Classes)
	}
	s, err := Load("electricity", Options{Data: p})
	if err != nil {
		t.Fatal(err)
	}
	if s.Batches != 100 || s.Features != 6 {
		t.Errorf("scenario: %d batches, %d features", s.Batches, s.Features)
	}
}

func BenchmarkReadElectricity(b *testing.B) {
	p := filepath.Join("..", "..", "shared", "data", "electricity.csv")
	st, err := os.Stat(p)
	if err != nil {
		b.Skip("no electricity.csv")
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := ReadTable(p, TableOptions{Label: "class"}); err != nil {
			b.Fatal(err)
		}
	}
}
