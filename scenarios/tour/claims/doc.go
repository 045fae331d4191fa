// Package claims holds no code: its tests check every claim of every embedded tour against the
// run it describes, on the seed the tour was written for (Scenario.TourSeed). A stop's templates
// ({C 0 11}, {cost Oracle}) are filled as the player fills them, from the scenario computed
// afresh; the words around them must state what that run does. Every number the author wrote and
// every word that states a pattern, a recurrence, a bound or an order ("every 7", "stays under 5",
// "the last retrain") must lie in a span some claim evaluates (check_test.go): a sentence about the
// run is a template, or a claim the test evaluates, or it is not written. It sits above the loader
// (package scenarios) and the engine, which the tour package itself may not import: the loader
// reads tours with it.
//
//	CARA_TOURS=all go test -run 'TestTourClaims' ./scenarios/tour/claims/
package claims
