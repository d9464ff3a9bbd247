package auq

import (
	_ "embed"
	"slices"
)

//go:embed schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of a request, the one
// source of the tool's input schema for every host. It states every rule
// a schema can: counts, required members, bounds, the "?" at the end of
// a question, reserved ids, no explicit Other, previews on single-select
// questions only, at most one recommended option. It cannot state that
// ids and labels are unique, nor the 256 KiB limit on a request, and its
// "blank" is ASCII white space only; Parse and Validate apply all of
// them. Each call returns a new copy.
func Schema() []byte { return slices.Clone(schema) }
