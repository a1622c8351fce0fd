package cells

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"
)

// Kind is what a cell is, from its first line.
type Kind int

const (
	// Glue is plain Go, interpreted.
	Glue Kind = iota
	// NativeC is %%c NAME [flags]: a C benchmark kernel built with cc.
	NativeC
	// NativeGo is %%go NAME [flags]: a Go benchmark kernel built with go build.
	NativeGo
	// NativeGoTest is %%gotest NAME [flags]: Go benchmarks written
	// func BenchmarkXxx(b *testing.B), built with go test -c.
	NativeGoTest
	// Bench is %bench NAME [key=value ...]: the measurement protocol.
	Bench
)

// Magic is a parsed magic line.
type Magic struct {
	Kind Kind
	Name string
	Args []string // flags for %%c/%%go/%%gotest, keys for %bench
	Body string   // the cell after its magic line
	// BodyLine is the cell line of Body's first line.
	BodyLine int
}

// MagicError is a magic line that cannot be understood.
type MagicError struct {
	Line int
	Msg  string
}

func (e *MagicError) Error() string { return e.Msg }

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseMagic reads the first line of a cell. A cell without a magic is glue.
func ParseMagic(code string) (Magic, error) {
	first, body, _ := strings.Cut(code, "\n")
	first = strings.TrimSpace(first)
	if m, ok := parseHelp(first); ok && strings.TrimSpace(body) == "" {
		return m, nil
	}
	if !strings.HasPrefix(first, "%") {
		return Magic{Kind: Glue, Body: code, BodyLine: 1}, nil
	}
	words, err := SplitWords(first)
	if err != nil {
		return Magic{}, &MagicError{Line: 1, Msg: fmt.Sprintf("magic line: %v", err)}
	}
	m := Magic{Body: body, BodyLine: 2}
	switch words[0] {
	case "%%c":
		m.Kind = NativeC
	case "%%go":
		m.Kind = NativeGo
	case "%%gotest":
		m.Kind = NativeGoTest
	case "%bench":
		m.Kind = Bench
	default:
		return Magic{}, &MagicError{Line: 1, Msg: fmt.Sprintf("unknown magic %s: benchbook knows %%%%c NAME [flags], %%%%go NAME [flags], %%%%gotest NAME [flags] and %%bench NAME [key=value ...]", words[0])}
	}
	if len(words) < 2 {
		return Magic{}, &MagicError{Line: 1, Msg: fmt.Sprintf("%s needs a kernel name: %s NAME ...", words[0], words[0])}
	}
	m.Name, m.Args = words[1], words[2:]
	if !nameRE.MatchString(m.Name) || token.IsKeyword(m.Name) {
		return Magic{}, &MagicError{Line: 1, Msg: fmt.Sprintf(
			"%s %s: a kernel name is an identifier (letters, digits, _; not a Go keyword), since it also names the result in glue cells", words[0], m.Name)}
	}
	if m.Kind == Bench && strings.TrimSpace(stripComments(body)) != "" {
		return Magic{}, &MagicError{Line: 2, Msg: "a %bench cell is one line: %bench NAME [key=value ...]; put other code in a cell of its own"}
	}
	if m.Kind != Bench && strings.TrimSpace(body) == "" {
		return Magic{}, &MagicError{Line: 1, Msg: fmt.Sprintf("%s %s has no code below its magic line", words[0], m.Name)}
	}
	return m, nil
}

func stripComments(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// SplitWords splits a magic line into words as a shell would, without ever
// running one: whitespace separates, single and double quotes group, and a
// backslash escapes the next character outside single quotes. Quotes inside
// a word are kept out: -gcflags="-N -l" is one word, -gcflags=-N -l.
func SplitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quote := false, rune(0)
	runes := []rune(s)
	for i := 0; i < len(runes); i++ {
		c := runes[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote == '\'':
			cur.WriteRune(c)
		case c == '\\' && i+1 < len(runes):
			i++
			cur.WriteRune(runes[i])
			inWord = true
		case quote == 0 && (c == '\'' || c == '"'):
			quote, inWord = c, true
		case quote == 0 && (c == ' ' || c == '\t'):
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
