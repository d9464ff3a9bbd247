package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/askuser/askuser/internal/strictjson"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxDepth is the deepest nesting of objects and arrays the SDK's decoder
// reads; it fails the whole connection on a deeper message.
const maxDepth = 1000

// maxID bounds a numeric id: the SDK reads ids as float64 and answers
// with them as int64, so only integers this small come back unchanged.
const maxID = strictjson.MaxSafeInteger

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
	if d := strictjson.Depth(msg); d > maxDepth {
		return nil, codeInvalidRequest, fmt.Sprintf("the message nests objects and arrays %d levels deep; the limit is %d", d, maxDepth)
	}
	m, err := strictjson.Members(msg, "jsonrpc", "id", "method", "params", "result", "error")
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
		if why := strictjson.StringProblem(v); why != "" {
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

// checkID checks that id, a JSON value, is an id the SDK answers with
// unchanged: a string of valid Unicode, or an integer written without a
// fraction or exponent, of at most maxID in magnitude.
func checkID(id json.RawMessage) error {
	switch c := id[0]; {
	case c == '"':
		if why := strictjson.StringProblem(id); why != "" {
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

// checkWireError checks a response's error object as the SDK reads it:
// an integer code, a string message and any data.
func checkWireError(e json.RawMessage) error {
	if e[0] != '{' {
		return errors.New("must be an object")
	}
	m, err := strictjson.Members(e, "code", "message", "data")
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
