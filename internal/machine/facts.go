package machine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Facts are every field of the description as what/value pairs, in a
// fixed order, for setting two descriptions side by side: the top-level
// fields by their JSON names (nested objects as "intel_pstate.status"),
// then per CPU "cpuN field", a CPU's caches as one value ("L1d 32K (CPUs
// 0), L2 512K (CPUs 0)", or "none"). It is read from the JSON form, so a
// field added to Description is a fact without a change here.
func (d Description) Facts() [][2]string {
	b, err := json.Marshal(d)
	if err != nil {
		return [][2]string{{"description", "unreadable: " + err.Error()}}
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	cpus, _ := m["cpus"].([]any)
	delete(m, "cpus")
	out := flatten("", m)
	for i, c := range cpus {
		cm, _ := c.(map[string]any)
		id := strconv.Itoa(i)
		if v, ok := cm["id"].(float64); ok {
			id = strconv.Itoa(int(v))
		}
		delete(cm, "id")
		caches := "none"
		if i < len(d.CPUs) && len(d.CPUs[i].Caches) > 0 {
			var parts []string
			for _, k := range d.CPUs[i].Caches {
				parts = append(parts, fmt.Sprintf("%s %s (CPUs %s)", k.name(), k.Size, k.Shared))
			}
			caches = strings.Join(parts, ", ")
		}
		delete(cm, "caches")
		for _, f := range flatten("", cm) {
			out = append(out, [2]string{"cpu" + id + " " + f[0], f[1]})
		}
		out = append(out, [2]string{"cpu" + id + " caches", caches})
	}
	return out
}

// flatten lists the scalars of m by key, sorted, nested objects as
// "outer.inner"; null is "(none)".
func flatten(prefix string, m map[string]any) [][2]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out [][2]string
	for _, k := range keys {
		switch v := m[k].(type) {
		case map[string]any:
			out = append(out, flatten(prefix+k+".", v)...)
		case nil:
			out = append(out, [2]string{prefix + k, "(none)"})
		case string:
			out = append(out, [2]string{prefix + k, v})
		default:
			b, _ := json.Marshal(v)
			out = append(out, [2]string{prefix + k, string(b)})
		}
	}
	return out
}

// DiffFacts are the facts whose values differ, in a's order then b's
// (a fact on one side only reads "(none)" on the other). The same
// difference on several CPUs ("cpu0 governor", "cpu1 governor", both
// performance against powersave) is said once, for "cpus 0-1".
func DiffFacts(a, b [][2]string) [][3]string {
	bv := map[string]string{}
	for _, f := range b {
		bv[f[0]] = f[1]
	}
	seen := map[string]bool{}
	var out [][3]string
	for _, f := range a {
		seen[f[0]] = true
		other, ok := bv[f[0]]
		if !ok {
			other = "(none)"
		}
		if other != f[1] {
			out = append(out, [3]string{f[0], f[1], other})
		}
	}
	for _, f := range b {
		if !seen[f[0]] {
			out = append(out, [3]string{f[0], "(none)", f[1]})
		}
	}
	return groupCPUs(out)
}

var cpuFact = regexp.MustCompile(`^cpu(\d+) (.+)$`)

// groupCPUs merges the differences of one field that read alike on
// several CPUs into one, at the place of the first.
func groupCPUs(diffs [][3]string) [][3]string {
	type group struct {
		at  int
		ids []int
	}
	groups := map[[3]string]*group{}
	var out [][3]string
	for _, d := range diffs {
		m := cpuFact.FindStringSubmatch(d[0])
		if m == nil {
			out = append(out, d)
			continue
		}
		id, _ := strconv.Atoi(m[1])
		key := [3]string{m[2], d[1], d[2]}
		if g, ok := groups[key]; ok {
			g.ids = append(g.ids, id)
			continue
		}
		groups[key] = &group{at: len(out), ids: []int{id}}
		out = append(out, d)
	}
	for key, g := range groups {
		if len(g.ids) > 1 {
			out[g.at][0] = "cpus " + FormatCPUList(g.ids) + " " + key[0]
		}
	}
	return out
}
