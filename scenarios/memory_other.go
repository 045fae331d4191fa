//go:build !linux

package scenarios

// physicalMemory is 0 (unknown) off Linux: the limit falls back to 8 GiB.
func physicalMemory() float64 { return 0 }
