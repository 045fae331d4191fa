//go:build race

package main

// raceEnabled says the tests run under the race detector, which slows everything several times.
const raceEnabled = true
