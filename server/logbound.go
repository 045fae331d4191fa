package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// maxLogValue bounds a value in the server's log: a client's name, command line or panic value
// is cut to it (saying how long it was), so no line a client causes runs past about 2 kB. A
// recovered panic's stack (the key "stack") is the server's own and is kept whole.
const maxLogValue = 512

// boundedHandler cuts long values before the handler it wraps writes them.
type boundedHandler struct{ next slog.Handler }

func boundLog(l *slog.Logger) *slog.Logger {
	if _, ok := l.Handler().(boundedHandler); ok {
		return l
	}
	return slog.New(boundedHandler{l.Handler()})
}

func (h boundedHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h boundedHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, cut(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(boundAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h boundedHandler) WithAttrs(as []slog.Attr) slog.Handler {
	bs := make([]slog.Attr, len(as))
	for i, a := range as {
		bs[i] = boundAttr(a)
	}
	return boundedHandler{h.next.WithAttrs(bs)}
}

func (h boundedHandler) WithGroup(name string) slog.Handler {
	return boundedHandler{h.next.WithGroup(name)}
}

func boundAttr(a slog.Attr) slog.Attr {
	if a.Key == "stack" {
		return a
	}
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, cut(v.String()))
	case slog.KindGroup:
		g := v.Group()
		bs := make([]any, len(g))
		for i, b := range g {
			bs[i] = boundAttr(b)
		}
		return slog.Group(a.Key, bs...)
	case slog.KindAny:
		return slog.String(a.Key, cut(fmt.Sprint(v.Any())))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

func cut(s string) string {
	if len(s) <= maxLogValue {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", strings.ToValidUTF8(s[:maxLogValue-64], ""), len(s))
}
