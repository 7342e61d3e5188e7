package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/telemetry"
)

// startTracing builds the tracer provider the OTEL_* variables describe
// (SPEC §7.4, package telemetry): the runner option that records spans,
// and flush, which sends what is left when the command ends, within
// telemetry.ShutdownTimeout. Without an OTLP endpoint both cost nothing.
func startTracing(cmd *cobra.Command) (opt runner.Option, flush func(), err error) {
	p, err := telemetry.FromEnv(cmd.Context(), os.LookupEnv, cmd.ErrOrStderr(), runner.Version)
	if err != nil {
		return nil, nil, &exitError{code: exitRun, msg: "invalid OpenTelemetry settings: " + err.Error()}
	}
	flush = func() {
		if err := p.Shutdown(context.WithoutCancel(cmd.Context())); err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "onetool: %v\n", err)
		}
	}
	return runner.WithTracerProvider(p.TracerProvider()), flush, nil
}
