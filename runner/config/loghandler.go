package config

import (
	"context"
	"fmt"
	"log/slog"
)

// LogHandler wraps h so that a secret's value never reaches a log line
// (SPEC §8.3): the message and every attribute are passed through Redact
// before h formats them, so a value is hidden in every form h or the
// attribute's own text can give it (a URL's percent-encoding, JSON's
// quoting). With no secret long enough to redact, h is returned as it is.
func (s *Secrets) LogHandler(h slog.Handler) slog.Handler {
	if s == nil || s.red == nil {
		return h
	}
	return &redactHandler{h: h, s: s}
}

type redactHandler struct {
	h slog.Handler
	s *Secrets
}

func (r *redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r *redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, r.s.Redact(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(r.attr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r *redactHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		red[i] = r.attr(a)
	}
	return &redactHandler{h: r.h.WithAttrs(red), s: r.s}
}

func (r *redactHandler) WithGroup(name string) slog.Handler {
	return &redactHandler{h: r.h.WithGroup(name), s: r.s}
}

// attr redacts an attribute: strings, errors and anything printed as text.
func (r *redactHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, r.s.Redact(v.String()))
	case slog.KindGroup:
		group := v.Group()
		red := make([]any, len(group))
		for i, g := range group {
			red[i] = r.attr(g)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		return slog.String(a.Key, r.s.Redact(fmt.Sprint(v.Any())))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
