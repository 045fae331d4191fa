//go:build !linux

package budget

// physicalMemory is 0 (unknown) off Linux.
func physicalMemory() int64 { return 0 }

// addressSpaceLimit is 0 (unknown) off Linux.
func addressSpaceLimit() int64 { return 0 }
