// Package screen puts the six panes on the screen: Set holds them typed, lays them out for the
// terminal's size and the focus (Layout: a matrix and a stack beside it, or tabs on a small
// terminal), draws them in their boxes (a box whose content stands is reused), answers the
// mouse's hit test, and places a callout clear of what it is about.
package screen
