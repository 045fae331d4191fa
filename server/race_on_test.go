//go:build race

package server

// raceEnabled says the tests run under the race detector, which slows everything several times.
const raceEnabled = true
