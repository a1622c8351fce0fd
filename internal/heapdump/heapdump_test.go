package heapdump

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

var keep [][]byte

// TestWrite checks that a dump holds this process's figures and a profile
// that parses, and that the figures see memory that is held.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, 0); err != nil {
		t.Fatal(err)
	}
	for range 64 {
		keep = append(keep, make([]byte, 64<<10)) // 4 MiB held
	}
	if err := Write(dir, 1); err != nil {
		t.Fatal(err)
	}
	var f [2]Figures
	for n := range f {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("heap-%d-%d.json", os.Getpid(), n)))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &f[n]); err != nil {
			t.Fatal(err)
		}
		if f[n].PID != os.Getpid() || f[n].N != n {
			t.Fatalf("dump %d names pid %d n %d", n, f[n].PID, f[n].N)
		}
		p, err := os.Open(filepath.Join(dir, fmt.Sprintf("heap-%d-%d.pprof", os.Getpid(), n)))
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(p) // a pprof profile: gzipped protocol buffers
		if err != nil {
			t.Fatalf("profile %d: %v", n, err)
		}
		if b, err := io.ReadAll(z); err != nil || len(b) == 0 {
			t.Fatalf("profile %d: %d bytes, %v", n, len(b), err)
		}
		p.Close()
	}
	if grew := int64(f[1].HeapAlloc) - int64(f[0].HeapAlloc); grew < 4<<20 {
		t.Fatalf("live heap grew %d bytes with 4 MiB held, want at least that", grew)
	}
}
