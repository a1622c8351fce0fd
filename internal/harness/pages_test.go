package harness

import (
	"os"
	"strings"
	"testing"
)

// thpMode is the bracketed word of /sys/kernel/mm/transparent_hugepage/enabled.
func thpMode(t *testing.T) string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Skipf("no transparent huge pages here: %v", err)
	}
	s := string(b)
	i, j := strings.Index(s, "["), strings.Index(s, "]")
	if i < 0 || j < i {
		t.Skipf("cannot read the THP mode from %q", s)
	}
	return s[i+1 : j]
}

// -pages huge gives the seed kernel's 4 MiB of static data huge pages (at
// least one 2 MiB page of its aligned interior, as AnonHugePages says),
// -pages 4k gives it none, in both drivers; the record comes after setup.
func TestPagesRecord(t *testing.T) {
	mode := thpMode(t)
	if mode == "never" {
		t.Skip("THP is off on this machine (never): -pages huge cannot get huge pages")
	}
	for _, lang := range []string{"c", "go"} {
		k := seedKernel(t, lang)
		for _, want := range []string{"4k", "huge"} {
			recs := runKernel(t, k, "-slots", "sink", "-settle-ms", "1", "-rounds", "1", "-pages", want)
			setup, pg := -1, -1
			for i, r := range recs {
				if r.Kind == "phase" && r.Fields["name"] == "setup" {
					setup = i
				}
				if r.Kind == "pages" {
					pg = i
				}
			}
			if pg < 0 || pg < setup {
				t.Fatalf("%s -pages %s: pages record at %d, setup at %d", lang, want, pg, setup)
			}
			r := recs[pg]
			kb, err := r.Int("anon_huge_kb")
			if err != nil || r.Fields["mode"] != want {
				t.Fatalf("%s -pages %s: %v (%v)", lang, want, r, err)
			}
			switch {
			case want == "huge" && kb < 2048:
				t.Errorf("%s -pages huge: AnonHugePages %d kB, want at least one 2 MiB page (THP %s): %v", lang, kb, mode, r)
			case want == "4k" && mode != "always" && kb != 0:
				t.Errorf("%s -pages 4k: AnonHugePages %d kB, want 0: %v", lang, kb, r)
			}
		}
	}
}
