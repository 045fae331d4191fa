package streams

// FeatureNames are the names of the stream's features: a CSV's header, nil for generated data
// (whose features are x1, x2, ...). The player labels its scatter's axes with them.
func (s *stream) FeatureNames() []string {
	if n, ok := s.data.(interface{ FeatureNames() []string }); ok {
		return n.FeatureNames()
	}
	return nil
}

// FeatureNames are the table's feature columns.
func (d *tableData) FeatureNames() []string { return d.tab.Features }
