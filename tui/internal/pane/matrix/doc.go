// Package matrix is pane 1, the cost matrix as the paper's figure 4a: the upper triangle of C (or
// of A or B) as a heat map on one colour scale fixed for the run, R on the diagonal, the Oracle's
// and the selected algorithm's paths over it, the cell cursor and its readout, zoomed one screen
// cell per matrix cell. Which colour a cell gets, R's way to the diagonal's included, is decided
// in colours.go and nowhere else.
package matrix
