package budget

import "syscall"

// physicalMemory is the machine's memory in bytes, 0 when unknown.
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}

// addressSpaceLimit is RLIMIT_AS (ulimit -v, prlimit --as) in bytes, 0 when there is none.
func addressSpaceLimit() int64 {
	var r syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &r) != nil || r.Cur == ^uint64(0) || r.Cur >= 1<<62 {
		return 0
	}
	return int64(r.Cur)
}
