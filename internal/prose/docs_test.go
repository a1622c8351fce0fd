package prose

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// documentedClaims are the claims the first column of docs/prose.md's
// tables names. A cell lists one or more in backquotes; `.x` after
// `a.b` is a.x (the conditions row).
func documentedClaims(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../../docs/prose.md")
	if err != nil {
		t.Fatal(err)
	}
	tick := regexp.MustCompile("`([^`]+)`")
	out := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(line[1:], "|", 2)[0]
		prefix := ""
		for _, m := range tick.FindAllStringSubmatch(first, -1) {
			id := m[1]
			if strings.HasPrefix(id, ".") {
				id = prefix + id
			} else if i := strings.Index(id, "."); i > 0 {
				prefix = id[:i]
			}
			out[id] = true
		}
	}
	return out
}

// Every claim an oracle checks has its predicate in docs/prose.md, and the
// document names no claim that none checks: adding a claim without its
// line there fails here (docs/adding-a-measurement.md, step 7).
func TestEveryClaimIsDocumented(t *testing.T) {
	doc := documentedClaims(t)
	known := map[string]bool{}
	for _, c := range Claims() {
		known[c] = true
	}
	for c := range sweepOracles {
		known[c] = true
	}
	var undocumented, unknown []string
	for c := range known {
		if !doc[c] {
			undocumented = append(undocumented, c)
		}
	}
	for c := range doc {
		if !known[c] {
			unknown = append(unknown, c)
		}
	}
	sort.Strings(undocumented)
	sort.Strings(unknown)
	if len(undocumented) > 0 {
		t.Errorf("claims with an oracle and no line in docs/prose.md: %s", strings.Join(undocumented, ", "))
	}
	if len(unknown) > 0 {
		t.Errorf("claims docs/prose.md names that no oracle checks: %s", strings.Join(unknown, ", "))
	}
	if len(doc) < 50 {
		t.Errorf("read %d claims from docs/prose.md: its tables were not found", len(doc))
	}
}
