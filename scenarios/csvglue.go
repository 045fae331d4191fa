package scenarios

// The loader's only contact with the CSV reader (csv.go): find and read a scenario's CSV file,
// and serve a table as the data or the queries of a stream.

// csvTable finds the CSV file a scenario names (relative to the scenario's folder dir, or
// searched for an embedded scenario when dir is "") and reads it. It returns where the file was
// found, for messages, and notes it among what the scenario was read from (identity).
func (l *loader) csvTable(dir, path string, opt TableOptions) (tab *Table, resolved string, err error) {
	if resolved, err = resolveDataPath(dir, path); err != nil {
		return nil, "", err
	}
	l.read = append(l.read, resolved)
	tab, err = ReadTable(resolved, opt)
	return tab, resolved, err
}

// csvData serves a table as the data, split into batches (a batch column, when the table has
// one, decides their number instead).
func csvData(tab *Table, batches int) (*tableData, error) { return newTableData(tab, batches) }

// csvQueries serves a table as the queries of the data's batches.
func csvQueries(tab *Table, batches int) (querySource, error) { return newTableQueries(tab, batches) }
