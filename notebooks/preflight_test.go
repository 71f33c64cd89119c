package notebooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPreflight runs scripts/preflight.sh as a workshop laptop would: it
// must pass on a machine that builds ressim and say so.
func TestPreflight(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs ressim; skipped with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	out, err := exec.Command("bash", "../scripts/preflight.sh").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "this laptop is ready") {
		t.Fatalf("preflight: %v\n%s", err, out)
	}
	for _, want := range []string{"ok    Go go1.", "ok    go build", "ok    one short run", "ok    plotting wrote overview.png"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("preflight output lacks %q:\n%s", want, out)
		}
	}
}

// TestPreflightAsksJupytersKernel runs preflight.sh --python-only against a
// fake python3 kernel (a kernel.json on JUPYTER_PATH whose interpreter is a
// script that logs what it is asked), with a python3 first on the PATH that
// lacks pandas, as pyenv's shims did when preflight gave false "pandas
// missing" alarms: the modules must be asked of the kernel's interpreter,
// and only its answer counts.
func TestPreflightAsksJupytersKernel(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	realPy, err := exec.LookPath("python3")
	if err == nil {
		err = exec.Command("jupyter", "kernelspec", "list", "--json").Run()
	}
	if err != nil {
		msg := "needs python3 and jupyter (" + err.Error() + ")"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	for _, tc := range []struct {
		name, kernel, want, notWant string
	}{
		{"kernel without pandas", "case \"$*\" in *pandas*) exit 1;; esac; exit 0",
			"warn  python module pandas missing in the kernel's", "ok    python module pandas"},
		{"kernel with pandas", "exit 0",
			"ok    python module pandas (in the kernel's", "pandas missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			calls := filepath.Join(dir, "calls")
			kpy := filepath.Join(dir, "kernel-python")
			script(t, kpy, "echo \"$*\" >>"+calls+"\n"+tc.kernel)
			spec := filepath.Join(dir, "jupyter", "kernels", "python3")
			if err := os.MkdirAll(spec, 0o755); err != nil {
				t.Fatal(err)
			}
			kernel := `{"argv": [` + strconv.Quote(kpy) + `, "-m", "ipykernel_launcher", "-f", "{connection_file}"], "display_name": "Python 3 (fake)", "language": "python"}`
			if err := os.WriteFile(filepath.Join(spec, "kernel.json"), []byte(kernel), 0o644); err != nil {
				t.Fatal(err)
			}
			// The python3 first on the PATH: the real one, without pandas.
			bin := filepath.Join(dir, "bin")
			if err := os.Mkdir(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			script(t, filepath.Join(bin, "python3"), "case \"$*\" in *\"import pandas\"*) exit 1;; esac\nexec "+realPy+" \"$@\"")
			cmd := exec.Command("bash", "../scripts/preflight.sh", "--python-only")
			cmd.Env = append(os.Environ(), "JUPYTER_PATH="+filepath.Join(dir, "jupyter"), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("preflight --python-only: %v\n%s", err, out)
			}
			o := string(out)
			for _, want := range []string{"ok    Jupyter's python3 kernel runs " + kpy, tc.want, "ok    python module matplotlib (in the kernel's " + kpy + ")"} {
				if !strings.Contains(o, want) {
					t.Errorf("output lacks %q:\n%s", want, o)
				}
			}
			if strings.Contains(o, tc.notWant) {
				t.Errorf("output has %q:\n%s", tc.notWant, o)
			}
			b, err := os.ReadFile(calls)
			if err != nil || !strings.Contains(string(b), "import pandas") {
				t.Errorf("the kernel's interpreter was not asked for pandas (%v): %q", err, b)
			}
		})
	}
}

// script writes an executable shell script.
func script(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}
