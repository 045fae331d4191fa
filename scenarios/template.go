package scenarios

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"
)

// The template is not a *.yaml file: from the repository's root, ./scenarios is the folder the
// picker offers, and a {{NAME}} placeholder is not a scenario it can open.
//
//go:embed template.yaml.tmpl
var template string

// Template returns a new scenario file named name: every field of the format with a working value
// or a commented alternative, so a user starts from something `cara validate` accepts.
func Template(name string) []byte {
	return []byte(strings.ReplaceAll(template, "{{NAME}}", name))
}

var (
	nameLine  = regexp.MustCompile(`(?m)^name:.*$`)
	titleLine = regexp.MustCompile(`(?m)^title:.*$`)
	// tourBlock is the top-level tour: key and everything indented (or blank) under it.
	tourBlock = regexp.MustCompile(`(?m)^tour:.*\n(?:(?:[ \t#].*)?\n)*`)
)

// Source returns the file of embedded scenario from, renamed to name: a scenario to start from.
// Its title says it is a copy, and its tour is left out (with a comment saying so): the stops
// speak of from's batches and would go on claiming them after the copy is edited.
func Source(from, name string) ([]byte, error) {
	from = strings.TrimSuffix(from, ".yaml")
	src, err := embedded.ReadFile("embedded/" + from + ".yaml")
	if err != nil || strings.ContainsAny(from, "/\\") {
		return nil, fmt.Errorf("no embedded scenario %q (%s)", from, strings.Join(EmbeddedNames(), ", "))
	}
	src = nameLine.ReplaceAll(src, []byte("name: "+name))
	src = titleLine.ReplaceAll(src, []byte(fmt.Sprintf("title: %q", name+" (a copy of "+from+")")))
	note := "# The tour of " + from + " is left out: its stops describe " + from + "'s batches. Write your\n" +
		"# own (see \"tour\" in docs/scenarios.md); cara's source has it in scenarios/embedded/" + from + ".yaml.\n"
	if tourBlock.Match(src) {
		src = tourBlock.ReplaceAll(src, []byte(note))
	}
	return src, nil
}

// EmbeddedNames lists the embedded scenarios' names in order.
func EmbeddedNames() []string {
	var names []string
	for _, i := range Embedded() {
		names = append(names, i.Name)
	}
	return names
}
