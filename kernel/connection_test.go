package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseConnectionInfo(t *testing.T) {
	const ports = `"shell_port": 5001, "control_port": 5002, "stdin_port": 5003, "iopub_port": 5004, "hb_port": 5005`
	cases := []struct {
		name     string
		json     string
		wantErr  string // substring of the error; "" for success
		endpoint string // Endpoint(ShellPort) on success
	}{
		{"tcp as jupyter_client writes it",
			`{"transport": "tcp", "ip": "127.0.0.1", ` + ports + `, "key": "k", "signature_scheme": "hmac-sha256", "kernel_name": "benchbook"}`,
			"", "tcp://127.0.0.1:5001"},
		{"ipc path is ip-port",
			`{"transport": "ipc", "ip": "/tmp/kernel-x", ` + ports + `, "key": "k", "signature_scheme": "hmac-sha256"}`,
			"", "ipc:///tmp/kernel-x-5001"},
		{"ipv6 address is bracketed",
			`{"transport": "tcp", "ip": "::1", ` + ports + `, "key": "", "signature_scheme": "hmac-sha256"}`,
			"", "tcp://[::1]:5001"},
		{"unsigned without a scheme", `{"ip": "127.0.0.1", ` + ports + `}`, "", "tcp://127.0.0.1:5001"},
		{"sha1 scheme refused",
			`{"transport": "tcp", "ip": "127.0.0.1", ` + ports + `, "key": "k", "signature_scheme": "hmac-sha1"}`,
			`signature_scheme "hmac-sha1" is not supported`, ""},
		{"key without a scheme refused", `{"ip": "127.0.0.1", ` + ports + `, "key": "k"}`,
			`signature_scheme "" is not supported`, ""},
		{"unknown transport", `{"transport": "udp", "ip": "127.0.0.1", ` + ports + `}`,
			`transport "udp"`, ""},
		{"missing port", `{"ip": "127.0.0.1", "shell_port": 1, "control_port": 2, "stdin_port": 3, "iopub_port": 4}`,
			"hb_port 0 is out of range", ""},
		{"port too large", `{"ip": "127.0.0.1", "shell_port": 70000, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5}`,
			"shell_port 70000 is out of range", ""},
		{"host name instead of ip", `{"ip": "example.com", ` + ports + `}`, `ip "example.com"`, ""},
		{"not JSON", `{"ip": `, "unexpected end of JSON", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ci, err := ParseConnectionInfo([]byte(c.json), "conn.json")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || !errors.Is(err, ErrConnectionFile) {
					t.Fatalf("err = %v, want ErrConnectionFile containing %q", err, c.wantErr)
				}
				if !strings.Contains(err.Error(), "conn.json") {
					t.Errorf("error %q does not name the file", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ci.Endpoint(ci.ShellPort); got != c.endpoint {
				t.Errorf("Endpoint = %q, want %q", got, c.endpoint)
			}
		})
	}
}

func TestReadConnectionFileMissing(t *testing.T) {
	_, err := ReadConnectionFile(filepath.Join(t.TempDir(), "nope.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want not exist", err)
	}
}

// TestRunRejectsBadConnection checks that Run returns at once with the
// reason when the connection file or a socket is unusable.
func TestRunRejectsBadConnection(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"ip":"127.0.0.1","key":"k","signature_scheme":"hmac-md5"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Run(t.Context(), bad, newFakeEngine(), os.Stderr); err == nil || !strings.Contains(err.Error(), "hmac-md5") {
		t.Errorf("Run with a bad scheme: %v", err)
	}
	ci := ipcConnection(t, "k")
	ci.IP = filepath.Join(dir, "no-such-dir", "k")
	file := writeConnFile(t, dir, ci)
	err := Run(t.Context(), file, newFakeEngine(), os.Stderr)
	if err == nil || !strings.Contains(err.Error(), "binding shell_port") {
		t.Errorf("Run with an unbindable path: %v", err)
	}
}
