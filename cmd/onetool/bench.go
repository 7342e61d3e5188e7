package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/spf13/cobra"

	"github.com/onetool-dev/onetool/internal/replay"
	"github.com/onetool-dev/onetool/packs/mcpclient"
	"github.com/onetool-dev/onetool/runner"
	"github.com/onetool-dev/onetool/runner/mcpserver"
)

func newBenchCmd(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure onetool",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	var wait time.Duration
	tokens := &cobra.Command{
		Use:   "tokens [--config F]",
		Short: "Compare the context cost of the configured servers with onetool's",
		Long: `Connect to every configured upstream MCP server and print, per server and
in total, the size of its own tools/list (what a client connected to it
directly pays in every conversation), next to onetool's tools/list plus
instructions, and the reduction.

Tokens are counted with the cl100k_base encoding (tiktoken, bundled, works
offline) as a stand-in: the tokenizers of Claude and most other models are
not public, and counts differ by a few percent between them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := g.newRunner(nil)
			if err != nil {
				return err
			}
			defer r.Close()
			return benchTokens(cmd.Context(), cmd.OutOrStdout(), r, wait)
		},
	}
	tokens.Flags().DurationVar(&wait, "wait", 60*time.Second, "how long to wait for the servers to connect")
	cmd.AddCommand(tokens)
	cmd.AddCommand(newBenchLoadCmd(g))
	cmd.AddCommand(newBenchReplayCmd(g))
	return cmd
}

// newBenchReplayCmd is `onetool bench replay`; the work is internal/replay's.
func newBenchReplayCmd(g *globalFlags) *cobra.Command {
	var asJSON, rerun bool
	var replace []string
	cmd := &cobra.Command{
		Use:   "replay FILE... [--json] [--rerun [--replace OLD=NEW]...]",
		Short: "Measure a recorded agent trial: calls, result and discovery characters per task",
		Long: `Read a trial recorded as JSON lines (one {"task", "code", "result"} per run
call, an MCP JSON-RPC log, a Messages API transcript, or onetool's
stats_file; see docs/agents.md) and print, per task and overall, the
calls, the characters of results read back, and those of discovery calls
(ot.help, listings, schema lookups, dir()).

--rerun runs each recorded program again against this build, with the
configuration of --config, one MCP session per task, and prints today's
figures beside the recorded ones. --replace OLD=NEW rewrites the programs
first (an address that is elsewhere today).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var repl []replay.Replacement
			for _, s := range replace {
				r, err := replay.ParseReplacement(s)
				if err != nil {
					return usageErrorf("%v", err)
				}
				repl = append(repl, r)
			}
			if len(repl) > 0 && !rerun {
				return usageErrorf("--replace applies to --rerun")
			}
			var trials []*replay.Trial
			for _, name := range args {
				f, err := os.Open(name)
				if err != nil {
					return &exitError{code: exitRun, msg: err.Error()}
				}
				t, err := replay.Read(f, name)
				f.Close()
				if err != nil {
					return &exitError{code: exitRun, msg: err.Error()}
				}
				trials = append(trials, t)
			}
			t := replay.Merge(trials...)
			var now *replay.Trial
			if rerun {
				cfg, err := g.loadConfig()
				if err != nil {
					return err
				}
				r, err := g.newRunnerFrom(cfg, nil)
				if err != nil {
					return err
				}
				defer r.Close()
				srv := mcpserver.New(r, mcpserver.Options{SessionState: cfg.Serve.SessionState})
				if now, err = replay.Rerun(cmd.Context(), t, srv, repl); err != nil {
					return &exitError{code: exitRun, msg: err.Error()}
				}
			}
			rep := replay.NewReport(t, now)
			if asJSON {
				return rep.WriteJSON(cmd.OutOrStdout())
			}
			return rep.WriteText(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&rerun, "rerun", false, "run the programs again against this build and show today's figures too")
	cmd.Flags().StringArrayVar(&replace, "replace", nil, "with --rerun, replace OLD by NEW in every program first (OLD=NEW, repeatable)")
	return cmd
}

// tokenCounter counts tokens with cl100k_base from the bundled BPE file.
func tokenCounter() (func(string) int, error) {
	// The library keeps its loader in a package variable; setting it to the
	// offline loader is the only way to count without a download.
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		return nil, err
	}
	return func(s string) int { return len(enc.Encode(s, nil, nil)) }, nil
}

// directListing is the tools/list result a server sends to a client
// connected to it directly.
func directListing(tools []mcpclient.Tool) string {
	type tool struct {
		Name         string          `json:"name"`
		Description  string          `json:"description,omitempty"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	}
	list := struct {
		Tools []tool `json:"tools"`
	}{Tools: []tool{}}
	for _, t := range tools {
		list.Tools = append(list.Tools, tool{t.Name, t.Description, t.InputSchema, t.OutputSchema})
	}
	data, _ := json.Marshal(list)
	return string(data)
}

func benchTokens(ctx context.Context, out io.Writer, r *runner.Runner, wait time.Duration) error {
	count, err := tokenCounter()
	if err != nil {
		return &exitError{code: exitRun, msg: fmt.Sprintf("token counter: %v", err)}
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "server\ttools\tcharacters\ttokens\t")
	var totalChars, totalTokens, totalTools int
	for _, srv := range r.Servers() {
		tools, err := srv.Tools(ctx)
		if err != nil {
			fmt.Fprintf(w, "%s\t-\t-\t-\t  %v\n", srv.Name(), err)
			continue
		}
		listing := directListing(tools)
		c, t := len(listing), count(listing)
		totalChars, totalTokens, totalTools = totalChars+c, totalTokens+t, totalTools+len(tools)
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t\n", srv.Name(), len(tools), c, t)
	}
	fmt.Fprintf(w, "all servers, directly\t%d\t%d\t%d\t\n", totalTools, totalChars, totalTokens)
	listChars, instrChars := mcpserver.ListingSize(r)
	listing, instructions := mcpserver.Listing(r)
	oneChars := listChars + instrChars
	oneTokens := count(listing) + count(instructions)
	fmt.Fprintf(w, "onetool: tools/list + instructions\t1\t%d\t%d\t\n", oneChars, oneTokens)
	w.Flush()
	if totalChars > 0 {
		fmt.Fprintf(out, "\nreduction: %.1f%% of characters, %.1f%% of tokens\n",
			100*(1-float64(oneChars)/float64(totalChars)), 100*(1-float64(oneTokens)/float64(totalTokens)))
	}
	fmt.Fprintln(out, "tokens: cl100k_base (tiktoken), a stand-in for the model's own tokenizer")
	return nil
}
