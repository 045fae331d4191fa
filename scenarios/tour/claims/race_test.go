//go:build race

package claims

// Under the race detector the tours' 100-batch scenarios would take minutes, and the engine's
// concurrency is tested in sim.
func init() { raceDetector = true }
