package kernel

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzConnectionFile feeds arbitrary bytes to the connection-file reader:
// it must never panic, every refusal wraps ErrConnectionFile, and a config
// it accepts is sane (tcp or ipc, hmac-sha256, an address, five ports in
// range, endpoints that name them) and reads back the same once written.
//
//	go test ./kernel -run '^$' -fuzz '^FuzzConnectionFile$' -fuzztime 60s
func FuzzConnectionFile(f *testing.F) {
	const ports = `"shell_port": 5001, "control_port": 5002, "stdin_port": 5003, "iopub_port": 5004, "hb_port": 5005`
	for _, s := range []string{
		`{"transport": "tcp", "ip": "127.0.0.1", ` + ports + `, "key": "a0b1", "signature_scheme": "hmac-sha256", "kernel_name": "benchbook"}`,
		`{"ip": "::1", ` + ports + `}`,
		`{"transport": "ipc", "ip": "/tmp/kernel-1", ` + ports + `, "key": ""}`,
		`{"ip": "*", ` + ports + `, "key": "k"}`,
		`{"ip": "localhost", "shell_port": 70000, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5}`,
		`{"ip": "127.0.0.1", "shell_port": -1, "control_port": 2, "stdin_port": 3, "iopub_port": 4, "hb_port": 5, "signature_scheme": "hmac-md5"}`,
		`{"transport": "udp", "ip": "10.0.0.1", ` + ports + `}`,
		`{"ip": 1}`, `[]`, `null`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ci, err := ParseConnectionInfo(data, "fuzz.json")
		if err != nil {
			if !errors.Is(err, ErrConnectionFile) {
				t.Fatalf("error does not wrap ErrConnectionFile: %v", err)
			}
			return
		}
		if ci.Transport != "tcp" && ci.Transport != "ipc" {
			t.Fatalf("accepted transport %q", ci.Transport)
		}
		if ci.SignatureScheme != SignatureScheme {
			t.Fatalf("accepted signature_scheme %q", ci.SignatureScheme)
		}
		if ci.IP == "" {
			t.Fatal("accepted an empty ip")
		}
		for _, p := range ci.ports() {
			if p.port <= 0 || ci.Transport == "tcp" && p.port > 65535 {
				t.Fatalf("accepted %s=%d", p.name, p.port)
			}
			if e := ci.Endpoint(p.port); !strings.HasPrefix(e, ci.Transport+"://") {
				t.Fatalf("endpoint %q of %s is not on %s", e, p.name, ci.Transport)
			}
		}
		out, err := json.Marshal(ci)
		if err != nil {
			t.Fatalf("accepted config does not marshal: %v", err)
		}
		back, err := ParseConnectionInfo(out, "again.json")
		if err != nil || back != ci {
			t.Fatalf("accepted config does not read back: %+v -> %s -> %+v, %v", ci, out, back, err)
		}
	})
}
