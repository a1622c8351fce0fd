package cells

import (
	"strings"

	"github.com/benchbook/benchbook/internal/protocol"
)

var magics = []string{"%%c", "%%go", "%%gotest", "%bench", "%help", "%lsmagic"}

// completeMagic completes the first line of a cell when it is a magic line:
// the magic itself, a kernel name after %bench, and %bench's keys.
func (s *Session) completeMagic(code string, cursor int) (matches []string, start, end int, ok bool) {
	if cursor > len(code) {
		cursor = len(code)
	}
	lineEnd := strings.IndexByte(code, '\n')
	if lineEnd >= 0 && cursor > lineEnd || !strings.HasPrefix(code, "%") {
		return nil, 0, 0, false
	}
	line := code[:cursor]
	start = strings.LastIndexAny(line, " \t") + 1
	word := line[start:]
	fields := strings.Fields(line[:start])
	var candidates []string
	switch {
	case len(fields) == 0:
		candidates = magics
	case fields[0] == "%bench" && len(fields) == 1:
		candidates = s.kernelNames()
	case fields[0] == "%bench":
		for _, k := range protocol.ValidKeys() {
			if k == "quick" {
				candidates = append(candidates, k)
			} else {
				candidates = append(candidates, k+"=")
			}
		}
	default:
		return nil, 0, 0, false
	}
	for _, c := range candidates {
		if strings.HasPrefix(c, word) {
			matches = append(matches, c)
		}
	}
	return matches, start, cursor, true
}
