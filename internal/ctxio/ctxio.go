// Package ctxio owns reads and writes that honour a context: opening and using a FIFO, a pipe or
// a device, which can block without end (a FIFO waits for its other end; a pipe whose reader does
// not read fills up), so that Ctrl-C and SIGTERM stop cara there too.
package ctxio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// File is an open file whose blocking reads and writes end when its context is done, with the
// context's error.
type File struct {
	*os.File
	ctx  context.Context
	stop func() bool
}

// Blocking reports whether a file at path can block without end: it exists and is not a regular
// file (a FIFO, a character device, a socket).
func Blocking(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.Mode().IsRegular() && !st.IsDir()
}

// Open is os.OpenFile under ctx. A regular file opens as usual. Anything else is opened
// aside (opening a FIFO waits for a writer, or a reader), and the wait ends with ctx; the
// descriptor then goes to Go's poller, where a done ctx sets a past deadline, ending a blocked
// Read or Write.
func Open(ctx context.Context, path string, flag int, perm os.FileMode) (*File, error) {
	if !Blocking(path) {
		f, err := os.OpenFile(path, flag, perm)
		if err != nil {
			return nil, err
		}
		return &File{File: f, ctx: ctx}, nil
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, flag, perm)
		done <- opened{f, err}
	}()
	var o opened
	select {
	case o = <-done:
	case <-ctx.Done():
		// The open is still waiting in the kernel; whoever comes to the other end closes it.
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
	if o.err != nil {
		return nil, o.err
	}
	f := &File{File: o.f, ctx: ctx}
	f.stop = context.AfterFunc(ctx, func() { o.f.SetDeadline(time.Unix(1, 0)) })
	return f, nil
}

// Read implements io.Reader.
func (f *File) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	return n, f.why(err)
}

// Write implements io.Writer.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, f.why(err)
}

// Close stops watching the context and closes the file.
func (f *File) Close() error {
	if f.stop != nil {
		f.stop()
	}
	return f.File.Close()
}

// why gives the context's error for a deadline that the context set.
func (f *File) why(err error) error {
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) && f.ctx.Err() != nil {
		return f.ctx.Err()
	}
	return err
}

// ReadFile reads the file at path whole under ctx (a FIFO waits for its writer), at most limit
// bytes. check sees its first bytes (up to head of them) before the rest is read, so that a file
// that is not what the caller reads (/dev/zero is not text) is refused there rather than read to
// the limit.
func ReadFile(ctx context.Context, path string, limit int64, head int, check func(first []byte) error) ([]byte, error) {
	f, err := Open(ctx, path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	first := make([]byte, head)
	n, err := io.ReadFull(f, first)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	first = first[:n]
	if err := check(first); err != nil {
		return nil, err
	}
	rest, err := io.ReadAll(io.LimitReader(f, limit-int64(n)+1))
	if err != nil {
		return nil, err
	}
	if int64(n+len(rest)) > limit {
		return nil, fmt.Errorf("%s is more than %d bytes: a device, or a pipe that does not end?", path, limit)
	}
	return append(first, rest...), nil
}
