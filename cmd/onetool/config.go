package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/config"
	"github.com/onetool-dev/onetool/runner/doctor"
)

// globalFlags are the flags every command shares.
type globalFlags struct {
	config  string
	secrets string
}

func (g *globalFlags) register(root *cobra.Command) {
	root.PersistentFlags().StringVar(&g.config, "config", "", "configuration `FILE` (default: $ONETOOL_CONFIG, ./.onetool/onetool.yaml, ~/.onetool/onetool.yaml)")
	root.PersistentFlags().StringVar(&g.secrets, "secrets", "", "secrets `FILE` (default: secrets.yaml beside the configuration)")
}

// loadConfig finds and loads the configuration the flags and environment
// name; none at all gives the built-in defaults.
func (g *globalFlags) loadConfig() (*config.Config, error) {
	opts := config.LoadOptions{SecretsPath: g.secrets}
	path, err := config.Find(g.config, opts)
	if err != nil {
		return nil, &exitError{code: exitRun, msg: err.Error()}
	}
	cfg, err := config.Load(path, opts)
	if err != nil {
		return nil, &exitError{code: exitRun, msg: "invalid configuration:\n" + err.Error()}
	}
	return cfg, nil
}

// newRunner builds the runner every command uses, from the configuration.
// adjust (may be nil) applies command-line limits over the configured
// ones; extra options apply last.
func (g *globalFlags) newRunner(adjust func(*runner.Limits) error, extra ...runner.Option) (*runner.Runner, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	return g.newRunnerFrom(cfg, adjust, extra...)
}

// newRunnerFrom is newRunner for an already loaded configuration.
func (g *globalFlags) newRunnerFrom(cfg *config.Config, adjust func(*runner.Limits) error, extra ...runner.Option) (*runner.Runner, error) {
	limits := runner.ConfigLimits(cfg, runner.DefaultLimits())
	if adjust != nil {
		if err := adjust(&limits); err != nil {
			return nil, err
		}
	}
	opts := append([]runner.Option{runner.WithConfig(cfg), runner.WithLimits(limits)}, extra...)
	r, err := runner.New(opts...)
	if err != nil {
		return nil, &exitError{code: exitRun, msg: "invalid configuration:\n" + err.Error()}
	}
	return r, nil
}

func newConfigCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Work with the configuration file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "check",
		Short: "Validate the configuration and print the effective result",
		Long: `Load the configuration (and its includes and secrets), check every
section — including that aliases name real tools and snippet templates
compile — and print the effective configuration with secrets masked.
Exit status 1 when anything is wrong.

This reads the file alone. 'onetool doctor' also checks what the file
names on this machine: projects, databases, server commands, upstream
servers, secrets.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := g.newRunner(nil)
			if err != nil {
				return err
			}
			defer r.Close()
			fmt.Fprintf(cmd.OutOrStdout(), "%s", r.Config().Effective())
			return nil
		},
	})
	return cmd
}

func newDoctorCmd(g *globalFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the configuration against this machine before use",
		Long: `Check everything 'onetool config check' checks, and then what the
configuration names on this machine, all at once:

  - every project directory (projects:) and SQLite database
    (packs.db.databases) exists and is not inside .onetool/ (onetool's
    own files);
  - every database opens read-only;
  - every server command (servers.<name>.command) is found and is
    executable, every servers.<name>.cwd exists;
  - every enabled upstream server answers MCP initialize within its
    timeout (servers.<name>.timeout, 30s by default; all at once);
  - every ${NAME} the configuration uses is defined (secrets.yaml or
    the environment).

Each problem is one line on stderr, "file:line: key: what is wrong; what
to do", followed by the count; each check passed is a line on stdout.
Nothing is written: databases are opened read-only, nothing is created.
Exit status 1 when anything is wrong.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts := config.LoadOptions{SecretsPath: g.secrets}
			path, err := config.Find(g.config, opts)
			if err != nil {
				return &exitError{code: exitRun, msg: err.Error()}
			}
			// Ctrl-C ends the checks at once and stops the servers: they
			// run in process groups of their own, which the terminal's
			// interrupt does not reach.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			rep := doctor.Run(ctx, doctor.Options{
				Path: path,
				Load: opts,
				Build: func(cfg *config.Config) (*runner.Runner, error) {
					return runner.New(runner.WithConfig(cfg), runner.WithLimits(runner.ConfigLimits(cfg, runner.DefaultLimits())))
				},
			})
			if ctx.Err() != nil {
				return &exitError{code: exitRun, msg: "interrupted: the checks did not finish"}
			}
			rep.Write(cmd.OutOrStdout(), cmd.ErrOrStderr())
			if len(rep.Problems) > 0 {
				return &exitError{code: exitRun, msg: rep.Summary()}
			}
			fmt.Fprintln(cmd.OutOrStdout(), rep.Summary())
			return nil
		},
	}
}
