package sim

import "math/bits"

func bitsTrailing(w uint64) int { return bits.TrailingZeros64(w) }
