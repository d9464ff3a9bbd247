package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxDepth is the deepest nesting of objects and arrays the SDK's decoder
// reads; it fails the whole connection on a deeper message.
const maxDepth = 1000

// maxID bounds a numeric id: the SDK reads ids as float64 and answers
// with them as int64, so only integers this small come back unchanged.
const maxID = 1<<53 - 1

// checkMessage checks that msg is one JSON-RPC 2.0 request, notification
// or response that the SDK reads as it was meant. When it is not, it
// returns the id to answer with (nil when there is none), the error code
// and the reason; code is 0 for a good message.
//
// The SDK ends the session on a message it cannot decode, and reads some
// others differently from their sender: it drops the fraction of an id,
// replaces invalid UTF-8, and keeps the last of duplicate keys. So the
// envelope is held to the letter here: known members only, each once,
// ids that survive the round trip, and at most maxDepth levels. Whatever
// passes is then decoded as the SDK decodes it, so that the two agree.
func checkMessage(msg []byte) (id json.RawMessage, code int, why string) {
	var raw json.RawMessage
	if err := json.Unmarshal(msg, &raw); err != nil {
		return nil, codeParseError, "the message is not valid JSON: " + syntaxProblem(err)
	}
	if msg[0] != '{' {
		return nil, codeInvalidRequest, "the message is not a JSON object (batches are not supported)"
	}
	if d := depth(msg); d > maxDepth {
		return nil, codeInvalidRequest, fmt.Sprintf("the message nests objects and arrays %d levels deep; the limit is %d", d, maxDepth)
	}
	m, err := members(msg, "jsonrpc", "id", "method", "params", "result", "error")
	if err != nil {
		return nil, codeInvalidRequest, "the message " + err.Error()
	}
	if v, ok := m["id"]; ok && string(v) != "null" {
		if err := checkID(v); err != nil {
			return nil, codeInvalidRequest, err.Error()
		}
		id = v
	}
	if v := m["jsonrpc"]; string(v) != `"2.0"` {
		return id, codeInvalidRequest, `jsonrpc must be "2.0"`
	}
	if v, ok := m["method"]; ok {
		if v[0] != '"' {
			return id, codeInvalidRequest, "method must be a string"
		}
		if why := stringProblem(v); why != "" {
			return id, codeInvalidRequest, "method " + why
		}
		if p, ok := m["params"]; ok && p[0] != '{' && string(p) != "null" {
			return id, codeInvalidRequest, "params must be an object"
		}
		if _, ok := m["result"]; ok {
			return id, codeInvalidRequest, "a request cannot carry a result"
		}
		if _, ok := m["error"]; ok {
			return id, codeInvalidRequest, "a request cannot carry an error"
		}
	} else {
		res, hasRes := m["result"]
		e, hasErr := m["error"]
		switch {
		case id == nil:
			return nil, codeInvalidRequest, "a message without a method is a response and needs an id"
		case m["params"] != nil:
			return id, codeInvalidRequest, "a response cannot carry params"
		case hasRes == hasErr:
			return id, codeInvalidRequest, "a response needs a result or an error, not both"
		case hasRes && string(res) == "null":
			return id, codeInvalidRequest, "a response's result cannot be null"
		case hasErr:
			if err := checkWireError(e); err != nil {
				return id, codeInvalidRequest, "error " + err.Error()
			}
		}
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		return id, codeInvalidRequest, "the message cannot be read: " + err.Error()
	}
	return nil, 0, ""
}

// requestID returns the id of the request that prefix, the start of a
// message too long to read whole, begins, so that the error that drops
// it reaches the request's caller instead of leaving it to wait: when the
// members before the cut hold a valid id, once, and a method. Otherwise
// it returns nil. Clients write the id and the method before the params,
// which are what makes a message long.
func requestID(prefix []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var id json.RawMessage
	method := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		switch key {
		case "id":
			if id != nil {
				return nil
			}
			id = v
		case "method":
			method = len(v) > 0 && v[0] == '"'
		}
	}
	if !method || id == nil || string(id) == "null" || checkID(id) != nil {
		return nil
	}
	return id
}

func syntaxProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	return err.Error()
}

// depth is how deep objects and arrays nest in msg, counted as the SDK
// counts it.
func depth(msg []byte) int {
	var d, deepest int
	inString, escaped := false, false
	for _, b := range msg {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			d++
			deepest = max(deepest, d)
		case '}', ']':
			d--
		}
	}
	return deepest
}

// members returns the members of obj, a valid JSON object, failing on a
// key not in known or given twice. Keys match exactly, as in the SDK.
func members(obj []byte, known ...string) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	m := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if !slices.Contains(known, key) {
			return nil, fmt.Errorf("has the unknown key %s", strconv.QuoteToASCII(key))
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("has the key %s twice", strconv.QuoteToASCII(key))
		}
		m[key] = v
	}
	return m, nil
}

// checkID checks that id, a JSON value, is an id the SDK answers with
// unchanged: a string of valid Unicode, or an integer written without a
// fraction or exponent, of at most maxID in magnitude.
func checkID(id json.RawMessage) error {
	switch c := id[0]; {
	case c == '"':
		if why := stringProblem(id); why != "" {
			return errors.New("id " + why)
		}
		return nil
	case c == '-' || c >= '0' && c <= '9':
		n, err := strconv.ParseInt(string(id), 10, 64)
		if err != nil || n > maxID || n < -maxID {
			return fmt.Errorf("id %.40s is not an integer from %d to %d written without a fraction or exponent", id, -maxID, maxID)
		}
		return nil
	}
	return errors.New("id must be a string or an integer")
}

// stringProblem says what is wrong with s, a valid JSON string literal,
// that the SDK would read as other text: invalid UTF-8 or an unpaired
// surrogate escape, which it replaces with U+FFFD. It returns "" for a
// good string.
func stringProblem(s []byte) string {
	if !utf8.Valid(s) {
		return "is not valid UTF-8"
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if s[i] != 'u' {
			continue
		}
		r := hex4(s[i+1:])
		i += 4
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return "holds an unpaired surrogate escape"
		case r >= 0xD800 && r <= 0xDBFF:
			if i+6 >= len(s) || s[i+1] != '\\' || s[i+2] != 'u' {
				return "holds an unpaired surrogate escape"
			}
			if lo := hex4(s[i+3:]); lo < 0xDC00 || lo > 0xDFFF {
				return "holds an unpaired surrogate escape"
			}
			i += 6
		}
	}
	return ""
}

// hex4 is the value of the four hex digits at the start of b, which a
// valid JSON \u escape has.
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(n)
}

// checkWireError checks a response's error object as the SDK reads it:
// an integer code, a string message and any data.
func checkWireError(e json.RawMessage) error {
	if e[0] != '{' {
		return errors.New("must be an object")
	}
	m, err := members(e, "code", "message", "data")
	if err != nil {
		return err
	}
	c, ok := m["code"]
	if !ok {
		return errors.New("needs a code")
	}
	if _, err := strconv.ParseInt(string(c), 10, 64); err != nil {
		return fmt.Errorf("code %.40s is not an integer", c)
	}
	if msg, ok := m["message"]; ok && msg[0] != '"' {
		return errors.New("message must be a string")
	}
	return nil
}
