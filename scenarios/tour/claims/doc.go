// Package claims holds no code: its tests check every claim of every embedded tour against the
// run it describes. A stop's templates ({C 0 11}, {cost Oracle}) are filled as the player fills
// them, from the scenario computed afresh, and the words around them must state what that run
// does. It sits above the loader (package scenarios) and the engine, which the tour package
// itself may not import: the loader reads tours with it.
//
//	CARA_TOURS=all go test -run 'TestTourClaims$' ./scenarios/tour/claims/
package claims
