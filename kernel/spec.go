package kernel

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KernelName is the name of the kernelspec folder.
const KernelName = "benchbook"

// Spec describes the kernelspec to install.
type Spec struct {
	// Binary is the path of the kernel binary; it is made absolute. Empty
	// means the running executable.
	Binary string
	// DisplayName defaults to "Go (benchbook)".
	DisplayName string
	// Language defaults to "go".
	Language string
	// Logos maps file names (logo-32x32.png, logo-64x64.png, logo-svg.svg)
	// to their bytes; each is written beside kernel.json.
	Logos map[string][]byte
	// Env is written as kernel.json's env: variables every client that
	// starts the kernel sets for it, literally (no substitution).
	Env map[string]string
}

// kernelJSON is the content of kernel.json.
type kernelJSON struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata"`
}

// InstallSpec writes dir/kernel.json, whose argv runs the binary as
// `BINARY kernel -f {connection_file}` with interrupts sent as messages,
// and the logo files; it creates dir if needed.
func InstallSpec(dir string, spec Spec) error {
	bin, err := specBinary(spec.Binary)
	if err != nil {
		return err
	}
	kj := kernelJSON{
		Argv:          []string{bin, "kernel", "-f", "{connection_file}"},
		DisplayName:   cmp.Or(spec.DisplayName, "Go (benchbook)"),
		Language:      cmp.Or(spec.Language, "go"),
		InterruptMode: "message",
		Env:           spec.Env,
		Metadata:      map[string]any{},
	}
	data, err := json.MarshalIndent(kj, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding kernel.json: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating kernelspec folder: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.json"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing kernel.json: %w", err)
	}
	for name, b := range spec.Logos {
		if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
			return fmt.Errorf("logo file name %q must be a plain file name", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("writing logo: %w", err)
		}
	}
	return nil
}

// specBinary returns the absolute path of bin, or of the running executable.
func specBinary(bin string) (string, error) {
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("finding the kernel binary: %w", err)
		}
		bin = exe
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return "", fmt.Errorf("making the kernel binary path %q absolute: %w", bin, err)
	}
	return abs, nil
}

// ErrSpecMode is returned by SpecDir for an unknown mode or a missing prefix.
var ErrSpecMode = errors.New("kernelspec location")

// SpecDir returns the folder of the benchbook kernelspec for an install mode,
// as jupyter_core's paths resolve it on Linux:
//   - "user": $JUPYTER_DATA_DIR, else $XDG_DATA_HOME/jupyter, else
//     ~/.local/share/jupyter;
//   - "sys-prefix": $CONDA_PREFIX, else $VIRTUAL_ENV, else /usr/local, then
//     share/jupyter (Go cannot ask Python for sys.prefix);
//   - "prefix": prefix/share/jupyter.
//
// Each is followed by kernels/benchbook. A leading "--" on mode is accepted.
func SpecDir(mode, prefix string) (string, error) {
	var data string
	switch strings.TrimPrefix(mode, "--") {
	case "user":
		d, err := userDataDir()
		if err != nil {
			return "", err
		}
		data = d
	case "sys-prefix":
		p := cmp.Or(os.Getenv("CONDA_PREFIX"), cmp.Or(os.Getenv("VIRTUAL_ENV"), "/usr/local"))
		data = filepath.Join(p, "share", "jupyter")
	case "prefix":
		if prefix == "" {
			return "", fmt.Errorf("%w: --prefix needs a folder", ErrSpecMode)
		}
		abs, err := filepath.Abs(prefix)
		if err != nil {
			return "", fmt.Errorf("%w: prefix %q: %w", ErrSpecMode, prefix, err)
		}
		data = filepath.Join(abs, "share", "jupyter")
	default:
		return "", fmt.Errorf("%w: unknown mode %q (user, sys-prefix or prefix)", ErrSpecMode, mode)
	}
	return filepath.Join(data, "kernels", KernelName), nil
}

// userDataDir is jupyter_core's jupyter_data_dir on Linux.
func userDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("%w: no home folder for --user: %w", ErrSpecMode, err)
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}
