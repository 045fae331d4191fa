package budget

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Bytes is a byte count that prints in binary units, three figures: 800 MiB, 1.5 GiB.
type Bytes int64

func (b Bytes) String() string {
	v := float64(b)
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for math.Abs(v) >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", int64(b))
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " " + units[i]
}

// sizeUnits are the suffixes ParseSize takes: binary (KiB, MiB, GiB, TiB, and K, M, G, T as GNU
// tools read them) and decimal (kB, MB, GB, TB).
var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
}

// ParseSize reads a size such as 800MiB, 1.5GiB, 2G, 512M or 1000000 (bytes), as --memory takes it.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.TrimSpace(t[i:])
	}
	mult, ok := sizeUnits[strings.ToLower(unit)]
	v, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || !(v > 0) || math.IsInf(v*mult, 0) || v*mult >= 1<<62 {
		return 0, fmt.Errorf("%q is not a size: give a positive number with a unit, e.g. 800MiB, 1.5GiB or 2G", s)
	}
	return int64(v * mult), nil
}
