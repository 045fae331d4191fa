package ctxio

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Issue 26, item 9: a FIFO that nobody writes to (or reads from) blocks open, read and write
// without end; under a cancelled context each returns context.Canceled, promptly.
func TestFIFOHonoursTheContext(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	within := func(name string, f func() error) {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- f() }()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v, want context.Canceled", name, err)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("%s did not end within 2 s of the cancel", name)
		}
	}
	cancelSoon := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		return ctx
	}
	readAll := func(ctx context.Context, path string) ([]byte, error) {
		f, err := Open(ctx, path, os.O_RDONLY, 0)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(f)
	}
	// No writer ever: the open waits.
	within("reading a FIFO without a writer", func() error {
		_, err := readAll(cancelSoon(), fifo)
		return err
	})
	// A writer that opens and then writes nothing: the read waits.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0) // O_RDWR never blocks on a FIFO (Linux)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	within("reading a FIFO whose writer is silent", func() error {
		_, err := readAll(cancelSoon(), fifo)
		return err
	})
	// A reader that never reads: the pipe fills and the write waits.
	within("writing into a full FIFO", func() error {
		f, err := Open(cancelSoon(), fifo, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		chunk := make([]byte, 1<<16)
		for {
			if _, err := f.Write(chunk); err != nil {
				return err
			}
		}
	})
	// A regular file reads as usual.
	reg := filepath.Join(t.TempDir(), "r")
	os.WriteFile(reg, []byte("abc"), 0o600)
	if b, err := readAll(context.Background(), reg); err != nil || string(b) != "abc" {
		t.Errorf("regular file: %q %v", b, err)
	}
}
