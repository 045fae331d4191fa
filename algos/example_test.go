package algos_test

import (
	"fmt"

	"github.com/cara-sim/cara/algos"
)

// A stream of 0/1 errors whose error rate jumps from 10 % to 60 % at element 1000: ADWIN drops the
// old part of its window once the difference is significant. It looks for a cut only every 32
// updates, so the drift shows at an update that is a multiple of 32 (index 1087 is update 1088 =
// 34 x 32), and the window keeps the recent part where the rate is the new one.
func ExampleADWIN() {
	a := algos.NewADWIN(0.002)
	for i := range 2000 {
		x := 0.0
		if (i < 1000 && i%10 == 0) || (i >= 1000 && i%10 < 6) {
			x = 1
		}
		if a.Update(x) {
			fmt.Printf("drift at %d, window now %d wide\n", i, a.Width())
			break
		}
	}
	// Output: drift at 1087, window now 832 wide
}

// DDM watches an error rate: fewer errors than before are fine, a rise of three deviations over
// the best seen is a drift. Here the rate goes from 10 % to 50 % at element 200; the running mean
// needs a couple of dozen errors to rise three deviations above its minimum.
func ExampleDDM() {
	d := algos.NewDDM()
	for i := range 400 {
		x := 0.0
		if (i < 200 && i%10 == 0) || (i >= 200 && i%2 == 0) {
			x = 1
		}
		if d.Update(x) {
			fmt.Println("drift at", i)
			break
		}
	}
	// Output: drift at 222
}

// Page-Hinkley accumulates how far values run above their mean; past its threshold of 50 it
// signals an increase.
func ExamplePageHinkley() {
	p := algos.NewPageHinkley()
	for i := range 300 {
		x := 0.0
		if i >= 100 {
			x = 5
		}
		if p.Update(x) {
			fmt.Println("drift at", i)
			break
		}
	}
	// Output: drift at 110
}

// matrix is a tiny cost matrix: model 0 goes stale after batch 2.
type matrix struct{}

func (matrix) Batches() int { return 6 }
func (matrix) Offline() int { return 2 }
func (matrix) Staleness(tp, t int) float64 {
	if tp == 0 && t > 2 {
		return 5
	}
	return 0.5
}
func (matrix) Errors(tp, t int) algos.Bits     { return algos.NewBits(10) }
func (matrix) QueryAccuracy(tp, t int) float64 { return 1 }

// The Oracle over the online block 2..5 at R = 2: keep model 2 throughout (cost 2 + 3 x 0.5).
func ExampleOracle() {
	c := algos.Costs{M: matrix{}, R: algos.Constant(2)}
	s := algos.Oracle(c, 2, 5)
	fmt.Println(s.Cost(), s.Retrains)
	// Output: 3.5 []
}

// Evaluate tunes every algorithm on the offline block and replays it online.
func ExampleEvaluate() {
	res, err := algos.Evaluate(matrix{}, algos.Constant(2), []algos.Name{algos.NameOracle, algos.NameNever, algos.NameMarkov}, 5)
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%s %.1f %v\n", r.Algorithm.Display(), r.Strategy.Cost(), r.Strategy.Retrains)
	}
	// Output:
	// Oracle 3.5 []
	// Never-retrain 3.5 []
	// Markov 3.5 []
}
