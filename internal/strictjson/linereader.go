// Reading LF-terminated lines of bounded length from a stream, in bounded
// memory: a line longer than the limit is reported and skipped without
// being held whole, whether or not a newline ends it.

package strictjson

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// LineTooLongError reports a line longer than a LineReader's limit. The
// line has been skipped; the next call to Next reads the line after it.
type LineTooLongError struct {
	// Max is the limit, in bytes, without the newline.
	Max int
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("line longer than %d bytes", e.Max)
}

// LineReader reads lines of at most a fixed number of bytes, such as the
// JSON lines of the Pi bridge and the popup's socket. It holds at most
// that many bytes of a line, plus a read buffer of 64 KiB, however long
// the line is. A LineReader is not safe for concurrent use.
type LineReader struct {
	r    *bufio.Reader
	max  int
	buf  []byte
	done bool // the stream has ended: every later Next returns io.EOF
}

// NewLineReader returns a LineReader of lines of at most max bytes
// (without the newline) from r. max must be positive.
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		panic("strictjson: max must be positive")
	}
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its LF. The line is valid until the
// next call to Next.
//
// A line longer than the limit is skipped and reported once as a
// *LineTooLongError, also when the stream ends before its newline. A last
// line that ends without a newline is returned with io.ErrUnexpectedEOF,
// so that the caller decides whether a truncated line counts. At the end
// of the stream, Next returns io.EOF; any other read error is returned as
// it is, with the part of the line read so far discarded.
func (lr *LineReader) Next() ([]byte, error) {
	if lr.done {
		return nil, io.EOF
	}
	lr.buf = lr.buf[:0]
	long := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1]
		}
		if !long {
			if len(lr.buf)+len(chunk) > lr.max {
				long = true
				lr.buf = lr.buf[:0]
			} else if err == nil && len(lr.buf) == 0 {
				// The common case: the whole line is in the read buffer.
				return chunk, nil
			} else {
				lr.buf = append(lr.buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if long {
				return nil, &LineTooLongError{Max: lr.max}
			}
			return lr.buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			lr.done = true
			switch {
			case long:
				return nil, &LineTooLongError{Max: lr.max}
			case len(lr.buf) > 0:
				return lr.buf, io.ErrUnexpectedEOF
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}
