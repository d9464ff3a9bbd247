package strictjson

import (
	"encoding/json"
	"fmt"
)

// Unmarshal decodes data, one JSON value, into v with encoding/json,
// after Check (with the zero CheckOptions) and, for a struct, ExactNames
// of v's fields have found nothing that could be read two ways. Members
// v has no field for are let be: it reads what a client sends, in the
// members askuser uses. Check's and ExactNames' errors come as they are;
// encoding/json's, which data Check passed can still raise (a string
// where v has a number), after "does not decode: ".
func Unmarshal(data []byte, v any) error {
	if err := Check(data, nil); err != nil {
		return err
	}
	if err := ExactNames(data, FieldNames(v)...); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("does not decode: %w", err)
	}
	return nil
}
