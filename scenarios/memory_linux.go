package scenarios

import "syscall"

// physicalMemory is the machine's memory in bytes, 0 when unknown.
func physicalMemory() float64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return float64(si.Totalram) * float64(si.Unit)
}
