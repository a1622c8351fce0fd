package report

// The role of each output a %bench cell writes, in its metadata as
// {"benchbook": {"role": ROLE}}: verify and compare find the outputs they
// check by role, not by their place among the cell's outputs.
const (
	RoleHeadline   = "headline"   // the answer, one line per variant (the first output)
	RoleBaseline   = "baseline"   // before/after measured in one run: its verdicts and table
	RoleCompare    = "compare"    // the comparison across runs with the kernel's previous result
	RoleResult     = "result"     // conditions and tables, with the result+json entry
	RolePlot       = "plot"       // a figure
	RoleCommentary = "commentary" // the commentary
	RoleBuild      = "build"      // a native cell's build, assembly and findings
)

// MetaKey is the key of benchbook's entry in an output's metadata.
const MetaKey = "benchbook"

// Role is the metadata of an output of the given role.
func Role(role string) map[string]any {
	return map[string]any{MetaKey: map[string]any{"role": role}}
}

// WithRole is meta (which it does not modify) with the role added.
func WithRole(meta map[string]any, role string) map[string]any {
	out := map[string]any{}
	for k, v := range meta {
		out[k] = v
	}
	out[MetaKey] = map[string]any{"role": role}
	return out
}

// RoleOf is the role an output's metadata names, "" when it names none.
func RoleOf(meta map[string]any) string {
	m, _ := meta[MetaKey].(map[string]any)
	role, _ := m["role"].(string)
	return role
}
