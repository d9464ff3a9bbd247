package contract

import (
	_ "embed"
	"slices"
)

//go:embed schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of a request, the one
// source of the tool's input schema for every host. It describes every
// member for the model that fills it in, but cannot state every rule
// (which kinds take options, labels that defaults must match, unique
// names and ids); Parse and Normalize apply all of them. Each call returns
// a new copy.
func Schema() []byte { return slices.Clone(schema) }
