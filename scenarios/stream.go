package scenarios

import (
	"math/rand/v2"

	"github.com/cara-sim/cara/sim"
)

// dataSource yields the data of each batch: a generator with its concept timeline, or a CSV table.
type dataSource interface {
	Len() int
	Features() int
	// Data returns batch t's points and labels, drawing any randomness from rng.
	Data(t int, rng *rand.Rand) (sim.Points, []uint8, error)
	// Label labels x by the concept in force at batch t; ok is false when the source has no known
	// concept (a CSV), and then generated queries carry no labels.
	Label(t int, x sim.Points, rng *rand.Rand) (y []uint8, ok bool)
	Drifts() []sim.Drift
}

// querySource yields the queries of batch t given that batch's data.
type querySource interface {
	Queries(t int, b *sim.Batch, rng *rand.Rand) (sim.Points, []uint8, error)
}
