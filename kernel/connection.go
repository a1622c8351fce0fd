package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
)

// SignatureScheme is the only message signing scheme this kernel accepts.
const SignatureScheme = "hmac-sha256"

// ErrConnectionFile is wrapped by every error about a connection file's content.
var ErrConnectionFile = errors.New("invalid connection file")

// ConnectionInfo is the content of a Jupyter connection file, as written by
// jupyter_client before it starts a kernel.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name"`
}

// ReadConnectionFile reads and validates the connection file at path.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ConnectionInfo{}, fmt.Errorf("reading connection file: %w", err)
	}
	return ParseConnectionInfo(data, path)
}

// ParseConnectionInfo decodes and validates a connection file's bytes; name
// (usually the file's path) is used in error messages.
func ParseConnectionInfo(data []byte, name string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	if err := json.Unmarshal(data, &ci); err != nil {
		return ConnectionInfo{}, fmt.Errorf("%w %s: %w", ErrConnectionFile, name, err)
	}
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.SignatureScheme == "" && ci.Key == "" {
		ci.SignatureScheme = SignatureScheme
	}
	if err := ci.validate(); err != nil {
		return ConnectionInfo{}, fmt.Errorf("%w %s: %w", ErrConnectionFile, name, err)
	}
	return ci, nil
}

// validate checks the transport, the address, the ports and the scheme.
func (ci ConnectionInfo) validate() error {
	if ci.SignatureScheme != SignatureScheme {
		return fmt.Errorf("signature_scheme %q is not supported (only %q is)", ci.SignatureScheme, SignatureScheme)
	}
	if ci.IP == "" {
		return errors.New("ip is empty")
	}
	switch ci.Transport {
	case "tcp":
		if net.ParseIP(ci.IP) == nil && ci.IP != "localhost" && ci.IP != "*" {
			return fmt.Errorf("ip %q is not an IP address", ci.IP)
		}
	case "ipc":
	default:
		return fmt.Errorf("transport %q is not supported (tcp or ipc)", ci.Transport)
	}
	for _, p := range ci.ports() {
		if p.port <= 0 || (ci.Transport == "tcp" && p.port > 65535) {
			return fmt.Errorf("%s %d is out of range", p.name, p.port)
		}
	}
	return nil
}

type namedPort struct {
	name string
	port int
}

// ports lists the five ports in a fixed order, with their JSON names.
func (ci ConnectionInfo) ports() []namedPort {
	return []namedPort{
		{"shell_port", ci.ShellPort},
		{"control_port", ci.ControlPort},
		{"stdin_port", ci.StdinPort},
		{"iopub_port", ci.IOPubPort},
		{"hb_port", ci.HBPort},
	}
}

// Endpoint returns the ZeroMQ endpoint of port on the file's transport and
// address: tcp://IP:PORT, or for ipc the path IP-PORT as jupyter_client
// names it.
func (ci ConnectionInfo) Endpoint(port int) string {
	if ci.Transport == "ipc" {
		return "ipc://" + ci.IP + "-" + strconv.Itoa(port)
	}
	return "tcp://" + net.JoinHostPort(ci.IP, strconv.Itoa(port))
}
