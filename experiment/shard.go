package experiment

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is --shard I/N: part I of N of a sweep. N runs with I = 1..N share the work without
// overlap, and a shard computes only the matrices of the seeds it works on (Units).
type Shard struct{ I, N int }

// ParseShard reads I/N; "" is the whole sweep, 1/1.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{1, 1}, nil
	}
	var i, n int
	if _, err := fmt.Sscanf(s, "%d/%d", &i, &n); err != nil || n < 1 || i < 1 || i > n || fmt.Sprintf("%d/%d", i, n) != s {
		return Shard{}, fmt.Errorf("--shard must be I/N with 1 <= I <= N (e.g. 2/8), got %q", s)
	}
	return Shard{i, n}, nil
}

// ParseShardIndex reads K/N with K counted from 0, as a Kubernetes Indexed Job numbers its pods
// ($JOB_COMPLETION_INDEX): the shard K+1 of N.
func ParseShardIndex(s string) (Shard, error) {
	var k, n int
	if _, err := fmt.Sscanf(s, "%d/%d", &k, &n); err != nil || n < 1 || k < 0 || k >= n || fmt.Sprintf("%d/%d", k, n) != s {
		return Shard{}, fmt.Errorf("--shard-index must be K/N with 0 <= K < N (e.g. 0/8: the first of 8), got %q", s)
	}
	return Shard{k + 1, n}, nil
}

// String is I/N.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Units lists the part of a sweep of seeds x costs that the shard evaluates: cost indices by seed
// index, ascending. With at least as many seeds as shards a shard owns whole seeds (seed index i is
// shard i mod N + 1's), so every matrix is computed once over all shards. With fewer seeds, shard
// I works on seed index (I-1) mod seeds and splits its costs with the other shards of that seed
// (Sharing), each of which computes the seed's matrix.
func (s Shard) Units(seeds, costs int) map[int][]int {
	out := map[int][]int{}
	all := func() []int {
		c := make([]int, costs)
		for k := range c {
			c[k] = k
		}
		return c
	}
	if seeds >= s.N {
		for si := s.I - 1; si < seeds; si += s.N {
			out[si] = all()
		}
		return out
	}
	j := s.I - 1
	si := j % seeds
	n := len(s.Sharing(si, seeds))
	for k := j / seeds; k < costs; k += n {
		out[si] = append(out[si], k)
	}
	return out
}

// Sharing lists the shards (1..N) that split seed index si's costs, when there are fewer seeds
// than shards; nil when a shard owns the seed whole.
func (s Shard) Sharing(si, seeds int) []int {
	if seeds >= s.N {
		return nil
	}
	var out []int
	for j := si; j < s.N; j += seeds {
		out = append(out, j+1)
	}
	return out
}

// Note says what this shard computes when that is not obvious: which shards share its seed's
// matrix (fewer seeds than shards), or that it has nothing to do. "" for a shard that owns whole
// seeds.
func (s Shard) Note(first uint64, seeds, costs int) string {
	units := s.Units(seeds, costs)
	if len(units) == 0 {
		return fmt.Sprintf("shard %v has nothing to do: %d seed(s) x %d cost(s) are split over %d shards", s, seeds, costs, s.N)
	}
	si := (s.I - 1) % max(seeds, 1)
	sharing := s.Sharing(si, seeds)
	if len(sharing) < 2 {
		return ""
	}
	names := make([]string, len(sharing))
	for i, j := range sharing {
		names[i] = strconv.Itoa(j)
	}
	seed := first + uint64(si)
	return fmt.Sprintf("%d seed(s) over %d shards: seed %d's %d costs are split over shards %s (this one evaluates %d), and each of them computes seed %d's matrix; with --seeds %d or more a shard owns whole seeds and every matrix is computed once",
		seeds, s.N, seed, costs, strings.Join(names, ", "), len(units[si]), seed, s.N)
}
