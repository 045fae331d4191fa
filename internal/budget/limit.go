package budget

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Limit is one bound on the process's memory, and where it comes from.
type Limit struct {
	Bytes int64
	From  string // e.g. "the cgroup's memory.max"
}

// MachineShare is the part of the machine's memory a server takes when nothing smaller bounds
// it: the rest is the machine's own.
const MachineShare = 0.5

// Limits are the bounds the process runs under that a default memory budget respects: the cgroup's
// memory limit (v2 memory.max or v1 memory.limit_in_bytes), GOMEMLIMIT, half the address-space limit
// (ulimit -v: the Go runtime reserves address space well beyond what it uses), and MachineShare of
// the machine's memory. Each is left out when it is absent or cannot be read.
func Limits() []Limit {
	var out []Limit
	if v, ok := cgroupLimit(); ok {
		m := CgroupMargin(v)
		out = append(out, Limit{v - m, fmt.Sprintf("the cgroup's memory limit (%v) less a margin of %v", Bytes(v), Bytes(m))})
	}
	if v := debug.SetMemoryLimit(-1); v > 0 && v < math.MaxInt64 {
		out = append(out, Limit{v, "GOMEMLIMIT"})
	}
	if v := addressSpaceLimit(); v > 0 {
		out = append(out, Limit{v / 2, "half the address-space limit (ulimit -v)"})
	}
	if v := physicalMemory(); v > 0 {
		out = append(out, Limit{int64(float64(v) * MachineShare), "half the machine's memory"})
	}
	return out
}

// CgroupMargin is what a default budget leaves below a cgroup's memory limit: an eighth of it, at
// least 64 MiB (at most half). The cgroup's limit is where the kernel kills the process; GOMEMLIMIT
// set at it would let the heap, and what the runtime holds beside it, reach the kill point before
// the collector works hard.
func CgroupMargin(limit int64) int64 { return min(max(limit/8, 64<<20), limit/2) }

// Default is the smallest of Limits (1 GiB with none known), and where it comes from.
func Default() Limit {
	best := Limit{1 << 30, "a guess (no limit of the machine could be read)"}
	for i, l := range Limits() {
		if i == 0 || l.Bytes < best.Bytes {
			best = l
		}
	}
	return best
}

// cgroupLimit reads the memory limit of the process's cgroup, v2 then v1.
func cgroupLimit() (int64, bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			if v, ok := readLimit("/sys/fs/cgroup" + f[2] + "/memory.max"); ok {
				return v, true
			}
			if v, ok := readLimit("/sys/fs/cgroup/memory.max"); ok { // a namespaced cgroup: its root
				return v, true
			}
		case strings.Contains(","+f[1]+",", ",memory,"):
			if v, ok := readLimit("/sys/fs/cgroup/memory" + f[2] + "/memory.limit_in_bytes"); ok {
				return v, true
			}
			if v, ok := readLimit("/sys/fs/cgroup/memory/memory.limit_in_bytes"); ok {
				return v, true
			}
		}
	}
	return 0, false
}

// readLimit reads a cgroup limit file: a number of bytes, "max" or a huge number for none.
func readLimit(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v <= 0 || v >= 1<<60 {
		return 0, false
	}
	return v, true
}
