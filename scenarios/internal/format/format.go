// Package format is the scenario file as written, before it means anything: the YAML schema (File
// and its sections; every leaf a Scalar that remembers its line and column), decoding a file
// strictly (Doc.Decode, with YAML merge keys expanded and --set overrides merged into the syntax
// tree first), and placing errors (Doc.Wrap, Source.Locate: file:line:column, or the --set a value
// came from). What the values mean is read by the loader (package scenarios) and by the packages
// of the sections' own jobs: the data and queries (streams), the tour (tour). The player's command
// line completes its paths from File (cmdline). It also makes a scenario's text safe to show
// (CleanText).
package format

// File is the file format: every key a scenario file may have. Every leaf is a Scalar (or a list
// of them) that remembers its place. The decoder refuses any key not here. A new key goes here,
// into template.yaml.tmpl (a test holds the template to this type), and into the reading of its
// section: scenarios/sections.go, internal/streams (data, queries) or tour; the player's command
// line completes it unasked.
type File struct {
	Name        Scalar         `yaml:"name"`
	Title       Scalar         `yaml:"title"`
	About       Scalar         `yaml:"about"`
	Seed        Scalar         `yaml:"seed"`
	Batches     Scalar         `yaml:"batches"`
	Offline     Scalar         `yaml:"offline"`
	Data        *Data          `yaml:"data"`
	Queries     *Queries       `yaml:"queries"`
	Model       *Model         `yaml:"model"`
	Kernel      *Kernel        `yaml:"kernel"`
	RetrainCost Scalar         `yaml:"retrain_cost"`
	Algorithms  Scalars        `yaml:"algorithms"`
	Detectors   *Detectors     `yaml:"detectors"`
	Schedules   []Schedule     `yaml:"schedules"` // fixed schedules priced as algorithms
	Tuning      *Tuning        `yaml:"tuning"`    // CARA-T's and CARA-CT's tie rule
	Errors      *Errors        `yaml:"errors"`    // beyond the paper
	Tour        []Stop         `yaml:"tour"`      // tour.go here; read by package tour
	TourSeed    Scalar         `yaml:"tour_seed"` // the seed the tour was written for (default: seed as the file writes it)
	Whatif      *WhatifSection `yaml:"whatif"`    // whatif.go here; read by the loader
}

// Errors is the errors section (beyond the paper): how much a model's error on a point counts.
type Errors struct {
	// Weights maps a class, as the data write it (0 and 1 for generated data), to the weight of an
	// error on a point of that class; a class left out weighs 1.
	Weights map[string]Scalar `yaml:"weights"`
}

// Tuning is the tuning section: which threshold of the optimal interval (tie: low, mid or high).
type Tuning struct {
	Tie Scalar `yaml:"tie"`
}

// Detectors is the detectors section.
type Detectors struct {
	Feed   Scalar  `yaml:"feed"`
	Reset  Scalar  `yaml:"reset"`
	Run    Scalars `yaml:"run"`    // the detectors replayed: all, none or a list of names
	Window Scalar  `yaml:"window"` // batches after a known drift within which an alarm detects it
}

// Schedule is one fixed schedule: every (with an optional offset) or at.
type Schedule struct {
	Every  Scalar  `yaml:"every"`
	Offset Scalar  `yaml:"offset"`
	At     Scalars `yaml:"at"`
}

// Gaussian is a Gaussian point generator: a mean and a standard deviation per feature.
type Gaussian struct {
	Mean Scalars `yaml:"mean"`
	Std  Scalars `yaml:"std"`
}

// Uniform is a uniform point generator: a box, low and high per feature.
type Uniform struct {
	Low  Scalars `yaml:"low"`
	High Scalars `yaml:"high"`
}

// Discrete is a discrete point generator: feature k takes the values 0..levels_k-1, each as likely
// (a categorical attribute, as STAGGER's size, colour and shape, coded as whole numbers).
type Discrete struct {
	Levels Scalars `yaml:"levels"`
}

// Component is one generator of a mixture, with its weight.
type Component struct {
	Weight   Scalar    `yaml:"weight"`
	Gaussian *Gaussian `yaml:"gaussian"`
	Uniform  *Uniform  `yaml:"uniform"`
	Discrete *Discrete `yaml:"discrete"`
}

// Generator is a point generator, written the same under data and queries: exactly one of
// gaussian, uniform, discrete or mixture.
type Generator struct {
	Gaussian *Gaussian   `yaml:"gaussian"`
	Uniform  *Uniform    `yaml:"uniform"`
	Discrete *Discrete   `yaml:"discrete"`
	Mixture  []Component `yaml:"mixture"`
}

// Given reports whether any generator is given.
func (g Generator) Given() bool {
	return g.Gaussian != nil || g.Uniform != nil || g.Discrete != nil || g.Mixture != nil
}

// Data is the data section: a generator and a concept timeline, or a CSV file.
type Data struct {
	Size        Scalar    `yaml:"size"`
	Features    Scalar    `yaml:"features"`
	Points      Generator `yaml:",inline"` // where the points are
	Label       Scalar    `yaml:"label"`
	Concepts    []Concept `yaml:"concepts"`
	Noise       Scalar    `yaml:"noise"`
	Resample    Scalar    `yaml:"resample"`
	CSV         Scalar    `yaml:"csv"`
	BatchColumn Scalar    `yaml:"batch_column"`
	Shuffle     Scalar    `yaml:"shuffle"`
	Ignore      Scalars   `yaml:"ignore"`      // CSV columns that are not features
	Categorical Scalars   `yaml:"categorical"` // CSV columns one-hot encoded whatever their values
	Missing     Scalar    `yaml:"missing"`     // empty CSV cells: mean, median (from the offline block) or drop; beyond the paper
	Positive    Scalar    `yaml:"positive"`    // the CSV label value that is class 1 (else the values sorted)
	// The classic streams that a point generator and a concept timeline cannot express:
	Hyperplane *Hyperplane `yaml:"hyperplane"` // the label: a rotating hyperplane (Hulten et al. 2001)
	RBF        *RBF        `yaml:"rbf"`        // points and labels: moving centroids (Bifet et al. 2009)
}

// Hyperplane labels points by a hyperplane whose weights drift, point by point.
type Hyperplane struct {
	DriftFeatures Scalar `yaml:"drift_features"` // how many weights drift (the first ones)
	Magnitude     Scalar `yaml:"magnitude"`      // the change of a drifting weight at each point
	Reversal      Scalar `yaml:"reversal"`       // the probability at each point that its direction reverses
}

// RBF draws points around moving centroids, each of a class.
type RBF struct {
	Centroids      Scalar `yaml:"centroids"`
	DriftCentroids Scalar `yaml:"drift_centroids"` // how many of them move (the first ones)
	Speed          Scalar `yaml:"speed"`           // the distance a moving centroid goes at each point
}

// Concept is one concept of a timeline.
type Concept struct {
	At         Scalar      `yaml:"at"`
	Label      Scalar      `yaml:"label"`
	Transition *Transition `yaml:"transition"`
}

// Transition is how a concept takes over from the one before it.
type Transition struct {
	Width Scalar `yaml:"width"`
	Shape Scalar `yaml:"shape"`
}

// Queries is the queries section: a CSV file, a sample of the data, or a generator.
type Queries struct {
	Size        Scalar    `yaml:"size"`
	Fraction    Scalar    `yaml:"fraction"`
	From        Scalar    `yaml:"from"`
	Points      Generator `yaml:",inline"` // where the points are
	CSV         Scalar    `yaml:"csv"`
	Label       Scalar    `yaml:"label"`
	BatchColumn Scalar    `yaml:"batch_column"`
}

// Model is the model section: exactly one model, fitted by cara or from outside (predictions, or
// a command with its timeout).
type Model struct {
	RandomForest    *Forest   `yaml:"random_forest"`
	Logistic        *Logistic `yaml:"logistic"`
	KNN             *KNN      `yaml:"knn"`
	NearestCentroid *struct{} `yaml:"nearest_centroid"`
	Window          Scalar    `yaml:"window"`      // M_t trains on batches t-window+1..t; beyond the paper
	Predictions     Scalar    `yaml:"predictions"` // a predictions file (CSV, gzip, Parquet): the model's answers
	Command         Scalars   `yaml:"command"`     // a program that is the model, and its arguments
	Timeout         Scalar    `yaml:"timeout"`     // seconds the command may take to answer one message
}

// Forest is model.random_forest.
type Forest struct {
	Trees       Scalar `yaml:"trees"`
	MaxDepth    Scalar `yaml:"max_depth"`
	MinLeaf     Scalar `yaml:"min_leaf"`
	MaxFeatures Scalar `yaml:"max_features"`
}

// Logistic is model.logistic.
type Logistic struct {
	Alpha       Scalar `yaml:"alpha"`
	MaxIter     Scalar `yaml:"max_iter"`
	Tol         Scalar `yaml:"tol"`
	Standardize Scalar `yaml:"standardize"`
}

// KNN is model.knn.
type KNN struct {
	K Scalar `yaml:"k"`
}

// Kernel is the kernel section.
type Kernel struct {
	Gamma       Scalar `yaml:"gamma"`
	Standardize Scalar `yaml:"standardize"` // the kernel on features standardised by the offline block; beyond the paper
}
