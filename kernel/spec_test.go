package kernel

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestInstallSpec(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kernels", KernelName)
	spec := Spec{Binary: "/opt/bin/benchbook", Logos: map[string][]byte{"logo-32x32.png": {0x89, 'P', 'N', 'G'}}}
	if err := InstallSpec(dir, spec); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"argv":           []any{"/opt/bin/benchbook", "kernel", "-f", "{connection_file}"},
		"display_name":   "Go (benchbook)",
		"language":       "go",
		"interrupt_mode": "message",
		"metadata":       map[string]any{},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kernel.json = %v, want %v", got, want)
	}
	if logo, err := os.ReadFile(filepath.Join(dir, "logo-32x32.png")); err != nil || string(logo) != "\x89PNG" {
		t.Errorf("logo = %q, %v", logo, err)
	}
}

func TestInstallSpecBinaryPaths(t *testing.T) {
	dir := t.TempDir()
	if err := InstallSpec(dir, Spec{Binary: "relative/bb"}); err != nil {
		t.Fatal(err)
	}
	argv0 := readArgv0(t, dir)
	if !filepath.IsAbs(argv0) || filepath.Base(argv0) != "bb" {
		t.Errorf("argv[0] = %q, want an absolute path ending in bb", argv0)
	}
	if err := InstallSpec(dir, Spec{}); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if got := readArgv0(t, dir); got != exe {
		t.Errorf("default argv[0] = %q, want the running executable %q", got, exe)
	}
	if err := InstallSpec(dir, Spec{Binary: "/bb", Logos: map[string][]byte{"../evil.png": nil}}); err == nil {
		t.Error("a logo name with a path was accepted")
	}
}

func readArgv0(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var kj kernelJSON
	if err := json.Unmarshal(data, &kj); err != nil {
		t.Fatal(err)
	}
	return kj.Argv[0]
}

func TestSpecDir(t *testing.T) {
	cases := []struct {
		name   string
		mode   string
		prefix string
		env    map[string]string
		want   string
	}{
		{"user honours JUPYTER_DATA_DIR", "--user", "", map[string]string{"JUPYTER_DATA_DIR": "/data/j"},
			"/data/j/kernels/benchbook"},
		{"user falls back to XDG_DATA_HOME", "user", "", map[string]string{"XDG_DATA_HOME": "/xdg"},
			"/xdg/jupyter/kernels/benchbook"},
		{"user falls back to the home folder", "user", "", map[string]string{"HOME": "/home/u"},
			"/home/u/.local/share/jupyter/kernels/benchbook"},
		{"sys-prefix prefers CONDA_PREFIX", "--sys-prefix", "", map[string]string{"CONDA_PREFIX": "/conda", "VIRTUAL_ENV": "/venv"},
			"/conda/share/jupyter/kernels/benchbook"},
		{"sys-prefix then VIRTUAL_ENV", "sys-prefix", "", map[string]string{"VIRTUAL_ENV": "/venv"},
			"/venv/share/jupyter/kernels/benchbook"},
		{"sys-prefix defaults to /usr/local", "sys-prefix", "", nil,
			"/usr/local/share/jupyter/kernels/benchbook"},
		{"prefix", "--prefix", "/opt/p", nil, "/opt/p/share/jupyter/kernels/benchbook"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range []string{"JUPYTER_DATA_DIR", "XDG_DATA_HOME", "CONDA_PREFIX", "VIRTUAL_ENV"} {
				t.Setenv(v, "")
			}
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			got, err := SpecDir(c.mode, c.prefix)
			if err != nil || got != c.want {
				t.Errorf("SpecDir(%q, %q) = %q, %v; want %q", c.mode, c.prefix, got, err, c.want)
			}
		})
	}
	for _, bad := range [][2]string{{"--prefix", ""}, {"--system", ""}} {
		if _, err := SpecDir(bad[0], bad[1]); !errors.Is(err, ErrSpecMode) {
			t.Errorf("SpecDir(%q, %q): err = %v, want ErrSpecMode", bad[0], bad[1], err)
		}
	}
}
