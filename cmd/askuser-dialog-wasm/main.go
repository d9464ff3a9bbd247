//go:build wasip1

// Command askuser-dialog-wasm is askuser's dialog as a WebAssembly module
// (GOOS=wasip1, built with -buildmode=c-shared) that the Pi package runs
// inside Pi's process, so that a key's frame is drawn there at once while
// the askuser child, which decides everything, gets the key as well. See
// package pimirror.
//
// The module exports functions over two buffers in its memory: the host
// writes a string into the input buffer (askuser_input) and calls an
// operation with its length; the operation leaves its answer, JSON, in the
// output buffer (askuser_output) and returns its length.
//
//	askuser_open(n)             the Spec in the input; {"id":N} or {"error":...}
//	askuser_resize(id, w, rows) the frame: {"lines":[...],"cursor":...}
//	askuser_key(id, text, n)    the key's name (text 0) or text (text 1) in
//	                            the input; the frame, or {"ended":true}
//	askuser_try(id, text, n)    the frame the key in the input would bring,
//	                            without applying it, or {"none":true}
//	                            (see pimirror.Mirror.Try)
//	askuser_adopt(id, text, n)  applies the key a try drew: 1, or 0 when
//	                            none did (see pimirror.Mirror.Adopt)
//	askuser_close(id)           forgets the dialog
package main

import (
	"encoding/json"
	"errors"
	"unsafe"

	"github.com/askuser/askuser/internal/host/pimirror"
	"github.com/askuser/askuser/internal/strictjson"
)

// The collector keeps Go's default pace (GOGC=100). The live heap is
// under a megabyte, so a collection is short, while a WebAssembly memory
// never shrinks: at GOGC=400 the module's memory grew to 30 MiB over a few
// thousand keys, where it now stays at 12.6 MiB, and the keys took as long.
func main() {}

var (
	input   []byte
	output  []byte
	mirrors = map[uint32]*pimirror.Mirror{}
	nextID  uint32
)

//go:wasmexport askuser_input
func inputBuffer(n uint32) unsafe.Pointer {
	if uint32(cap(input)) < n {
		input = make([]byte, n)
	}
	input = input[:cap(input)]
	return unsafe.Pointer(unsafe.SliceData(input))
}

//go:wasmexport askuser_output
func outputBuffer() unsafe.Pointer {
	return unsafe.Pointer(unsafe.SliceData(output))
}

//go:wasmexport askuser_open
func open(n uint32) uint32 {
	var spec pimirror.Spec
	if err := json.Unmarshal(input[:n], &spec); err != nil {
		return fail(err)
	}
	m, err := pimirror.New(&spec)
	if err != nil {
		return fail(err)
	}
	nextID++
	mirrors[nextID] = m
	output = append(output[:0], `{"id":`...)
	output = strictjson.AppendUint(output, uint(nextID))
	output = append(output, '}')
	return uint32(len(output))
}

//go:wasmexport askuser_resize
func resize(id, width, rows uint32) uint32 {
	m, ok := mirrors[id]
	if !ok {
		return fail(errNoDialog)
	}
	f, err := m.Resize(int(width), int(rows))
	if err != nil {
		return fail(err)
	}
	output = pimirror.AppendFrame(output[:0], f)
	return uint32(len(output))
}

//go:wasmexport askuser_key
func key(id, text, n uint32) uint32 {
	m, ok := mirrors[id]
	if !ok {
		return fail(errNoDialog)
	}
	f, ended, err := m.Key(keyIn(text, n))
	if ended {
		return reply(f, `{"ended":true}`, err)
	}
	return reply(f, "", err)
}

//go:wasmexport askuser_try
func try(id, text, n uint32) uint32 {
	m, ok := mirrors[id]
	if !ok {
		return fail(errNoDialog)
	}
	f, ok, err := m.Try(keyIn(text, n))
	if !ok {
		return reply(f, `{"none":true}`, err)
	}
	return reply(f, "", err)
}

// reply leaves the error in the output when there is one, else instead,
// else the frame, and returns the output's length.
func reply(f pimirror.Frame, instead string, err error) uint32 {
	switch {
	case err != nil:
		return fail(err)
	case instead != "":
		output = append(output[:0], instead...)
	default:
		output = pimirror.AppendFrame(output[:0], f)
	}
	return uint32(len(output))
}

//go:wasmexport askuser_adopt
func adopt(id, text, n uint32) uint32 {
	m, ok := mirrors[id]
	if ok && m.Adopt(keyIn(text, n)) {
		return 1
	}
	return 0
}

// keyIn is the key in the input's first n bytes: its name, or with text
// set its text.
func keyIn(text, n uint32) (name, s string) {
	s = string(input[:n])
	if text == 0 {
		return s, ""
	}
	return "", s
}

//go:wasmexport askuser_close
func closeDialog(id uint32) {
	delete(mirrors, id)
}

var errNoDialog = errors.New("no such dialog")

func fail(err error) uint32 {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	output = append(output[:0], b...)
	return uint32(len(output))
}
