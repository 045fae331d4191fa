package scenarios

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

//go:embed template.yaml
var template string

// Template returns a new scenario file named name: every field of the format with a working value
// or a commented alternative, so a user starts from something `cara validate` accepts.
func Template(name string) []byte {
	return []byte(strings.ReplaceAll(template, "{{NAME}}", name))
}

var nameLine = regexp.MustCompile(`(?m)^name:.*$`)

// Source returns the file of embedded scenario from, renamed to name: a scenario to start from.
func Source(from, name string) ([]byte, error) {
	from = strings.TrimSuffix(from, ".yaml")
	src, err := embedded.ReadFile("embedded/" + from + ".yaml")
	if err != nil || strings.ContainsAny(from, "/\\") {
		return nil, fmt.Errorf("no embedded scenario %q (%s)", from, strings.Join(EmbeddedNames(), ", "))
	}
	return nameLine.ReplaceAll(src, []byte("name: "+name)), nil
}

// EmbeddedNames lists the embedded scenarios' names in order.
func EmbeddedNames() []string {
	var names []string
	for _, i := range Embedded() {
		names = append(names, i.Name)
	}
	return names
}
