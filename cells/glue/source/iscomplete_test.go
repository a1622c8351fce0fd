package source

import "testing"

// Requirement 10: IsComplete.

func TestIsComplete(t *testing.T) {
	tests := []struct {
		name, code, status, indent string
	}{
		{"statement", "x := 1", StatusComplete, ""},
		{"empty", "", StatusComplete, ""},
		{"open func body", "func f() {", StatusIncomplete, "\t"},
		{"open block, indented", "if x {\n\ty := 1", StatusIncomplete, "\t\t"},
		{"open call", "fmt.Println(\"a\",", StatusIncomplete, "\t"},
		{"trailing operator", "x := 1 +", StatusIncomplete, "\t"},
		{"open raw string", "s := `abc", StatusIncomplete, ""},
		{"closed func", "func f() {\n}", StatusComplete, ""},
		{"shell line", "!ls -l", StatusComplete, ""},
		{"stray paren", "x := )", StatusInvalid, ""},
		{"stray brace", "}", StatusInvalid, ""},
		{"unterminated string", "x := \"abc", StatusInvalid, ""},
		{"for header", "for i := 0; i < 3; i++ {\n}", StatusComplete, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, indent := IsComplete(tc.code)
			if status != tc.status || indent != tc.indent {
				t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", tc.code, status, indent, tc.status, tc.indent)
			}
		})
	}
}
