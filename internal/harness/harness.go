// Package harness is what native benchmark kernels are built with: the C
// header and driver and the Go bench package (shipped inside the benchbook
// binary, so a build needs no network), the build itself with its cache, the
// disassembly of every timed function, and the reader of the records a
// kernel binary writes while it runs.
package harness

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

//go:embed c/benchbook.h c/driver.c c/bench_freq.h go/bench/bench.go go/bench/driver.go go/bench/freq*.go go/bench/freq_amd64.s
//go:embed go/bench/clock.go go/bench/pages.go go/bench/flush.go go/bench/flush_amd64.go go/bench/flush_amd64.s go/bench/flush_other.go
//go:embed c/latency.h c/latency.c go/bench/latency.go go/bench/ticks_amd64.go go/bench/ticks_amd64.s go/bench/ticks_arm64.go go/bench/ticks_arm64.s go/bench/ticks_other.go
var files embed.FS

// Version returns a hash of the harness sources: part of every build's cache
// key, so that a change of the harness rebuilds every kernel.
var Version = sync.OnceValue(func() string {
	h := sha256.New()
	var names []string
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	for _, n := range names {
		b, _ := files.ReadFile(n)
		h.Write([]byte(n))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

// writeTree copies the embedded directory src into dir.
func writeTree(src, dir string) error {
	return fs.WalkDir(files, src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		b, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o600)
	})
}
