package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/ressim/ressim/sim/experiment"
	"github.com/ressim/ressim/sim/importer"
)

func newImportCmd() *cobra.Command {
	var out string
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
VirtualService resources, multi-document YAML). See
docs/import.md for the field-by-field mapping.

Exit status: 0 imported (possibly with warnings), 2 an unsupported value, an
unreadable file or a bad command line.`,
		Example: "  ressim import grpc service_config.json -o exp.toml && ressim lint exp.toml",
		Args:    cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			return runImport(c.OutOrStdout(), c.ErrOrStderr(), args[0], args[1:], out)
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "write the experiment to this file instead of standard output")
	return c
}

func runImport(stdout, stderr io.Writer, kind string, files []string, out string) error {
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
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if out == "" {
		_, err = io.WriteString(stdout, res.TOML)
		return err
	}
	if err := os.WriteFile(out, []byte(res.TOML), 0o644); err != nil {
		return fmt.Errorf("import: %w", err)
	}
	return nil
}

// readBounded reads at most experiment.MaxFileSize bytes of a file; a
// larger file is an error.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, experiment.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > experiment.MaxFileSize {
		return nil, fmt.Errorf("%s is larger than the %d-byte (1 MiB) limit", path, experiment.MaxFileSize)
	}
	return data, nil
}
