package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const nobody = 65534

// plant replaces the binary of the cache entry of k by a script that would
// leave marker behind, with a build.json that names it by its hash, and
// then spoils the entry with spoil.
func plant(t *testing.T, k *Kernel, marker string, spoil func(entry string)) {
	t.Helper()
	entry := filepath.Dir(k.Binary)
	script := []byte("#!/bin/sh\ntouch " + marker + "\n")
	if err := os.WriteFile(k.Binary, script, 0o700); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(script)
	var stored map[string]any
	b, _ := os.ReadFile(filepath.Join(entry, "build.json"))
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	stored["binary_sha256"] = hex.EncodeToString(sum[:])
	b, _ = json.Marshal(stored)
	if err := os.WriteFile(filepath.Join(entry, "build.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	spoil(entry)
}

// A cache entry that another user owns, or that others may write in, is
// not trusted: it is rebuilt with a warning, and its binary never runs.
func TestPlantedCacheEntryIsRebuilt(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("chown to nobody needs root")
	}
	chmod := func(name string, mode os.FileMode) func(string) {
		return func(entry string) {
			if err := os.Chmod(filepath.Join(entry, name), mode); err != nil {
				t.Fatal(err)
			}
		}
	}
	chown := func(name string) func(string) {
		return func(entry string) {
			if err := os.Chown(filepath.Join(entry, name), nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name  string
		spoil func(entry string)
		says  string
	}{
		{"entry 0777", chmod(".", 0o777), "group or others may write"},
		{"binary 0777", chmod("kernel", 0o777), "group or others may write"},
		{"build.json 0666", chmod("build.json", 0o666), "group or others may write"},
		{"entry owned by nobody", chown("."), "owned by uid 65534"},
		{"binary owned by nobody", chown("kernel"), "owned by uid 65534"},
		{"everything, as in the issue", func(entry string) {
			for _, n := range []string{".", "kernel", "build.json"} {
				chown(n)(entry)
				chmod(n, 0o777)(entry)
			}
		}, "owned by uid 65534"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := Spec{Name: "k", Lang: "c", Code: "BENCH(a) { bench_sink(1); }\n", Line: 2, Label: "Cell[1]", CacheDir: t.TempDir()}
			k := build(t, spec)
			marker := filepath.Join(t.TempDir(), "ran")
			plant(t, k, marker, c.spoil)
			again := build(t, spec)
			if again.Cached {
				t.Fatal("the planted entry was used")
			}
			if !strings.Contains(again.CacheWarning, c.says) || !strings.Contains(again.Warnings, again.CacheWarning) {
				t.Errorf("warning %q, want one saying %q (warnings: %q)", again.CacheWarning, c.says, again.Warnings)
			}
			if out, err := exec.Command(again.Binary, "list").CombinedOutput(); err != nil || !strings.Contains(string(out), "variant a") {
				t.Errorf("the rebuilt binary: %v %s", err, out)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the planted binary ran")
			}
			third := build(t, spec)
			if !third.Cached || third.CacheWarning != "" {
				t.Errorf("the rebuilt entry is not trusted: cached=%v %q", third.Cached, third.CacheWarning)
			}
		})
	}
}

// Without HOME and XDG_CACHE_HOME the cache is a folder of this user's in
// the temporary folder, made 0700; one that is not ours is refused.
func TestFallbackCacheDir(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("BENCHBOOK_CACHE", "")
	dir, err := DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 || filepath.Dir(dir) != tmp || !strings.Contains(dir, "benchbook-cache-") {
		t.Fatalf("fallback cache %s: %v %v", dir, fi.Mode(), err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := DefaultCacheDir(); err == nil || !strings.Contains(err.Error(), "not ours") {
		t.Errorf("a 0777 fallback cache: %v", err)
	}
	if os.Getuid() == 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		if _, err := DefaultCacheDir(); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("a fallback cache owned by nobody: %v", err)
		}
		_, err := Build(context.Background(), Spec{Name: "k", Lang: "c", Code: "BENCH(a) {}\n", Line: 2, Label: "Cell[1]"})
		if err == nil || !strings.Contains(err.Error(), "not ours") {
			t.Errorf("Build with a foreign fallback cache: %v", err)
		}
	}
}
