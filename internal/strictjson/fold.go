// ExactNames, for a JSON object that encoding/json decodes into a struct:
// encoding/json takes a member whose name differs only in case (or by a
// character that folds to the same letter, such as the Kelvin sign for
// k) as the field, after or in place of the one spelled exactly, where a
// client that wrote the object reads names exactly.

package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// ExactNames refuses data, a JSON object, when a member's name matches
// one of names without regard to case but is not spelled exactly as it
// is: encoding/json would read that member as the named one, where the
// object's writer means another member. data that is not an object is
// let be: its decoder refuses it.
func ExactNames(data []byte, names ...string) error {
	d := json.NewDecoder(bytes.NewReader(data))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil
		}
		key, _ := t.(string)
		for _, n := range names {
			if key != n && strings.EqualFold(key, n) {
				return fmt.Errorf("the member %q is not %q, which encoding/json would read it as", key, n)
			}
		}
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return nil
		}
	}
	return nil
}

// FieldNames returns the JSON member names of the fields of the struct
// that v, a struct or a pointer to one, holds, as encoding/json names
// them: by the field's tag, else its name; a field tagged "-" has none.
func FieldNames(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}
