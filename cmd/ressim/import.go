package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/internal/input"
	"github.com/ressim/ressim/internal/termsafe"
	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/importer"
)

func newImportCmd() *cobra.Command {
	var o importOptions
	c := &cobra.Command{
		Use:   "import KIND FILE...",
		Short: "Turn real resilience configurations into an experiment file",
		Long: `Import reads configuration files of KIND and writes an experiment: a skeleton
topology (a caller, one service per configured callee) whose calls carry the
imported timeouts, retries and budgets, each commented with the source file,
line and column it came from. Values the source does not give (load, pool
sizes, service times) are marked PLACEHOLDER. Every source field ressim does
not model is a warning on standard error; an unsupported value is an error
with its position, and nothing is written. KIND is one of: grpc (gRPC
service config JSON), resilience4j (Spring Boot application.yml), envoy
(Envoy v3 clusters and routes, YAML or JSON), istio (DestinationRule and
VirtualService resources, multi-document YAML), aws (the AWS SDKs' shared
config file, ~/.aws/config: each profile's retry_mode and max_attempts). See
docs/import.md for the field-by-field mapping.

With --into EXPERIMENT.toml the settings go onto that experiment's calls
instead of a skeleton: every imported name (gRPC service or service/method,
resilience4j instance, Envoy cluster, Istio host, AWS profile) is mapped onto the steps of
a service that call another, with --map SOURCE=CALLER:CALLEE (repeatable) or a
--map-file of such lines. A policy the import sets replaces the step's own,
kept as a comment; the merged experiment is validated.

Exit status: 0 imported (possibly with warnings), 2 an unsupported value, an
unmapped name, an unreadable file, an input too large for one experiment
(more than 1000 calls, or over 1 MiB generated: split it) or a bad command
line.`,
		Example: "  ressim import grpc service_config.json -o exp.toml && ressim lint exp.toml\n" +
			"  ressim import istio mesh.yaml --into shop.toml --map reviews=productpage:reviews -o merged.toml",
		Args: cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			return runImport(c.OutOrStdout(), c.ErrOrStderr(), args[0], args[1:], o)
		},
	}
	c.Flags().StringVarP(&o.out, "out", "o", "", "write the experiment to this file instead of standard output")
	// --output was import's spelling before every command's became -o/--out.
	c.Flags().StringVar(&o.out, "output", "", "the old spelling of --out")
	_ = c.Flags().MarkDeprecated("output", "use -o/--out, the output flag of every command")
	c.Flags().StringVar(&o.into, "into", "", "merge the settings into this experiment's calls instead of generating a skeleton")
	c.Flags().StringArrayVar(&o.maps, "map", nil, "with --into: SOURCE=CALLER:CALLEE, the imported name SOURCE goes onto CALLER's calls to CALLEE (repeatable)")
	c.Flags().StringVar(&o.mapFile, "map-file", "", "with --into: a file of SOURCE=CALLER:CALLEE lines (# comments)")
	return c
}

// importOptions are import's flags.
type importOptions struct {
	out, into, mapFile string
	maps               []string
}

func runImport(stdout, stderr io.Writer, kind string, files []string, o importOptions) error {
	out := o.out
	var srcs []importer.Source
	for _, f := range files {
		data, err := readBounded(f)
		if err != nil {
			return usageError{fmt.Errorf("import: %w", err)}
		}
		srcs = append(srcs, importer.Source{Name: f, Data: data})
	}
	res, err := importer.Import(kind, srcs)
	if err != nil {
		return usageError{err}
	}
	importWarnings(stderr, res.Warnings)
	text := res.TOML
	if o.into != "" {
		if text, err = mergeInto(res, o); err != nil {
			return usageError{err}
		}
	} else if len(o.maps) > 0 || o.mapFile != "" {
		return usageError{fmt.Errorf("import: --map and --map-file need --into")}
	}
	if out == "" {
		_, err = io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	return nil
}

// importWarnings prints an import's warnings, one line each: they quote
// the source's keys, so control characters are escaped (Diag.String does
// it too; this keeps the guarantee here, where the terminal is).
func importWarnings(w io.Writer, ds []importer.Diag) {
	for _, d := range ds {
		fmt.Fprintln(w, "warning:", termsafe.Line(d.String()))
	}
}

// readBounded reads at most experiment.MaxFileSize bytes of a file
// without waiting on a FIFO (internal/input); a larger file is an error.
func readBounded(path string) ([]byte, error) {
	return input.ReadFile(path, experiment.MaxFileSize)
}

// mergeInto merges an import into the --into experiment by the mappings
// of --map-file, then --map.
func mergeInto(res *importer.Result, o importOptions) (string, error) {
	into, err := readBounded(o.into)
	if err != nil {
		return "", fmt.Errorf("import: --into: %w", err)
	}
	var maps []importer.Mapping
	if o.mapFile != "" {
		data, err := readBounded(o.mapFile)
		if err != nil {
			return "", fmt.Errorf("import: --map-file: %w", err)
		}
		if maps, err = importer.ParseMappingFile(o.mapFile, data); err != nil {
			return "", fmt.Errorf("import: %w", err)
		}
	}
	for i, spec := range o.maps {
		m, err := importer.ParseMapping(spec, fmt.Sprintf("--map[%d]", i+1))
		if err != nil {
			return "", fmt.Errorf("import: %w", err)
		}
		maps = append(maps, m)
	}
	return importer.Merge(res, o.into, into, maps)
}
