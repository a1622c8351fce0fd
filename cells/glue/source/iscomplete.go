package source

import (
	"go/scanner"
	"strings"
)

// Statuses returned by IsComplete.
const (
	StatusComplete   = "complete"
	StatusIncomplete = "incomplete"
	StatusInvalid    = "invalid"
)

// IsComplete says whether code is ready to run: "incomplete" (with the
// indent of the next line: one tab more than the last line's when a bracket
// is open or the last line ends with an operator) while a bracket, raw
// string or comment is open, the last line ends with an operator, or the
// parser stops at the end of the input; "invalid" for a syntax error that
// more input cannot fix; otherwise "complete".
func IsComplete(code string) (status, indent string) {
	code = strings.ReplaceAll(code, "\r\n", "\n")
	if strings.TrimSpace(code) == "" {
		return StatusComplete, ""
	}
	var goText []string
	for _, seg := range SplitCell(code) {
		if !seg.Shell {
			goText = append(goText, seg.Text)
		}
	}
	src := strings.Join(goText, "\n")
	sum := summarize(src)
	lastIndent := lastLineIndent(code)
	switch {
	case sum.unbalanced || sum.badLit:
		return StatusInvalid, ""
	case sum.openEOF:
		return StatusIncomplete, lastIndent
	case sum.depth > 0 || continues(sum.last):
		return StatusIncomplete, lastIndent + "\t"
	}
	return parseStatus(src), ""
}

// parseStatus parses Go source made of top-level items.
func parseStatus(src string) string {
	items := SplitItems(Segment{Text: src, Line: 1})
	if _, err := Parse(0, items); err != nil {
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 && strings.Contains(list[0].Msg, "EOF") {
			return StatusIncomplete
		}
		return StatusInvalid
	}
	return StatusComplete
}

// lastLineIndent is the leading blanks of the last non-blank line.
func lastLineIndent(code string) string {
	lines := strings.Split(code, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if strings.TrimSpace(l) != "" {
			return l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		}
	}
	return ""
}
