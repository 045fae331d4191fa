package algos

import "errors"

// Strategy is the outcome of replaying a decision function (Algorithm 1 of the paper) over the
// batches Start..End (inclusive). The model of Start is trained at Start: every strategy pays
// C[Start, Start], and that initial training is not counted among Retrains.
type Strategy struct {
	Start, End int
	Model      []int     // Model[i] = s_t, the model in use at batch t = Start+i (after the decision)
	Retrains   []int     // batches t > Start where the decision was RETRAIN, ascending
	Cumulative []float64 // Cumulative[i] = sum of C[s_j, j] for j = Start..Start+i
	Reasons    []string  // Reasons[i]: why the decision at Start+i was taken, one short line
}

// Cost is the strategy cost: the sum of C[s_t, t] over Start..End.
func (s Strategy) Cost() float64 {
	if len(s.Cumulative) == 0 {
		return 0
	}
	return s.Cumulative[len(s.Cumulative)-1]
}

// Result is one algorithm's run over the online block at one retraining cost.
type Result struct {
	Algorithm     string
	Strategy      Strategy
	Params        map[string]float64 // tuned parameters (theta, theta_c, period, offset); nil when none
	OfflineCost   float64            // the tuned variant's offline-optimal cost; NaN when not tuned
	SCPE          float64            // 100*|a-b|/|b| against the Oracle; NaN when undefined (b == 0)
	Gap           float64            // a - b
	QueryAccuracy float64            // prequential mean over online batches; NaN without query labels
}

// Names lists every algorithm, in display order.
var Names = []string{"oracle", "cara-t", "cara-ct", "cara-p", "never", "markov", "adwin", "ddm", "page-hinkley"}

// Evaluate tunes each named algorithm on the offline block 0..Offline()-1 and replays it over the
// online block Offline()..end (end inclusive, end < Batches(); cells up to column end must be
// computed), at retraining cost r. The Oracle is always computed (SCPE needs it); results follow
// the order of names. TEMPORARY SKELETON: being written.
func Evaluate(m Matrix, r RetrainCost, names []string, end int) ([]Result, error) {
	return nil, errors.New("algos: Evaluate not implemented yet")
}
