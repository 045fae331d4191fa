package sim

import (
	"fmt"
	"math"
	"slices"
)

// flatKernel is the median similarity of a query and a data point above which the kernel is said
// not to tell the queries apart: exp(-gamma ||q - x||^2) > 0.99 for most pairs means every data
// point weighs about the same for every query, and C no longer depends on where the queries are.
// (Query pairs alone would flag static queries, which are alike by design.)
const flatKernel = 0.99

// kernelSample bounds the queries, and the data points, whose pairs KernelSpread compares.
const kernelSample = 128

// sample takes up to kernelSample rows evenly from the points of every batch (the same ones for
// a stream).
func sample(batches []*Batch, points func(*Batch) Points) [][]float64 {
	total := 0
	for _, b := range batches {
		total += points(b).Len()
	}
	stride := max(1, total/kernelSample)
	var out [][]float64
	k := 0
	for _, b := range batches {
		p := points(b)
		for i := range p.Len() {
			if k%stride == 0 && len(out) < kernelSample {
				out = append(out, p.Row(i))
			}
			k++
		}
	}
	return out
}

// narrowKernel is the similarity that even the nearest 1 % of query-data pairs stay below for
// the kernel to be said to see no data near any query: every QDM sum, and so every cell of C,
// is then about 0, whatever the models do.
const narrowKernel = 1e-6

// KernelSpread is the median of exp(-gamma ||q - x||^2) over pairs of a query and a data point,
// each drawn evenly from every batch; NaN without queries.
func KernelSpread(batches []*Batch, gamma float64) float64 {
	med, _ := kernelQuantiles(batches, gamma)
	return med
}

// kernelQuantiles are the median and the 99th percentile of exp(-gamma ||q - x||^2) over the pairs
// KernelSpread takes (sorted once: a what-if pays this on every change of gamma or queries).
func kernelQuantiles(batches []*Batch, gamma float64) (median, p99 float64) {
	qs := sample(batches, func(b *Batch) Points { return b.Q })
	xs := sample(batches, func(b *Batch) Points { return b.X })
	if len(qs) == 0 || len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	sims := make([]float64, 0, len(qs)*len(xs))
	for _, q := range qs {
		for _, x := range xs {
			d2 := 0.0
			for f := range q {
				d := q[f] - x[f]
				d2 += d * d
			}
			sims = append(sims, math.Exp(-gamma*d2))
		}
	}
	slices.Sort(sims)
	return sims[len(sims)/2], sims[len(sims)*99/100]
}

// dominantShare is the share of the squared distances between queries and data points above which
// one feature is said to carry them alone.
const dominantShare = 0.99

// dominantFeature says when one feature carries at least dominantShare of the squared distances
// between the queries and the data points (pairs drawn as KernelSpread draws them): the kernel then
// sees that feature alone, which is seldom what a practitioner means (engine hours in the
// thousands beside a temperature in kelvin and a vibration in mm/s). The median similarity can be
// anything meanwhile, so kernelWarning does not see it.
func dominantFeature(batches []*Batch, names []string) string {
	qs := sample(batches, func(b *Batch) Points { return b.Q })
	xs := sample(batches, func(b *Batch) Points { return b.X })
	if len(qs) == 0 || len(xs) == 0 || len(qs[0]) < 2 {
		return ""
	}
	d := len(qs[0])
	per := make([]float64, d)
	for _, q := range qs {
		for _, x := range xs {
			for f := range q {
				diff := q[f] - x[f]
				per[f] += diff * diff
			}
		}
	}
	total, top := 0.0, 0
	for f, v := range per {
		total += v
		if v > per[top] {
			top = f
		}
	}
	share := per[top] / total
	if !(share >= dominantShare) || math.IsInf(total, 0) {
		return ""
	}
	return fmt.Sprintf("%s carries %.1f %% of the squared distances between queries and data points, so the kernel sees that feature alone and C hardly depends on the others (%s); if the features' units are not comparable, standardise them (kernel: {standardize: true})",
		featureName(names, top), 100*share, scalesText(featureStats(batches)))
}

// featureNames are a stream's feature names, when it has them (a CSV's columns).
func featureNames(s Stream) []string {
	if n, ok := s.(interface{ FeatureNames() []string }); ok {
		return n.FeatureNames()
	}
	return nil
}

// kernelWarning says when the kernel cannot tell the queries apart, naming gamma, where it came
// from, and the scale of the features (the smallest and the largest standard deviation over the
// offline data): with features on different scales, scale's one pooled variance is set by the
// largest, or by the gap between the features' means. standardized says the batches are the
// kernel's standardised view (kernel.standardize).
func kernelWarning(spec GammaSpec, gamma float64, batches []*Batch, offline int, standardized bool) string {
	med, near := kernelQuantiles(batches, gamma)
	if !(med > flatKernel) && !(near < narrowKernel) {
		return ""
	}
	from := "kernel.gamma"
	switch spec.Mode {
	case GammaScale:
		from = "kernel.gamma scale: 1/(d x the variance of all offline feature values pooled)"
	case GammaAuto:
		from = "kernel.gamma auto: 1/d"
	}
	if standardized {
		from += ", on the features standardised by the offline block"
	}
	scales := scalesText(featureStats(batches[:offline]))
	if !(med > flatKernel) {
		return fmt.Sprintf("the kernel is so narrow that no data point is near any query: 99 %% of the similarities exp(-gamma ||q - x||^2) of a query and a data point are below %.3g (gamma = %.3g, from %s; %s), so every cell of C is about 0 whatever the models do; set a smaller kernel.gamma",
			narrowKernel, gamma, from, scales)
	}
	fix := "standardise the features (kernel: {standardize: true}) or set kernel.gamma"
	if standardized {
		fix = "set kernel.gamma"
	}
	return fmt.Sprintf("the kernel hardly tells the queries apart: the median similarity exp(-gamma ||q - x||^2) of a query and a data point is %.4f (gamma = %.3g, from %s; %s), so C barely depends on where the queries are; %s",
		med, gamma, from, scales, fix)
}
