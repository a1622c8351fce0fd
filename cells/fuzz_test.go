package cells

import (
	"errors"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

// quoteWords joins words into a line SplitWords reads back: each word in
// single quotes, a single quote inside closing the quote, escaped, and
// opening it again, as a shell reads it.
func quoteWords(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// FuzzParseMagic feeds arbitrary cells to ParseMagic and SplitWords: they
// never panic; a refusal is a *MagicError on line 1 or 2; a magic accepted
// has a known kind and an identifier for a name, and reads the same once its
// words are quoted and joined again; SplitWords' words, quoted and joined,
// split into the same words.
//
//	go test ./cells -run '^$' -fuzz '^FuzzParseMagic$' -fuzztime 60s
func FuzzParseMagic(f *testing.F) {
	for _, s := range []string{
		"x := 1\n",
		"%%c seed\nBENCH(a) {}\n",
		"%%c seed -O0 -std=c11\nBENCH(a) {}",
		"%%go twin \"-gcflags=-N -l\"\nfunc BenchA() {}",
		`%bench seed quick predict="sink/discarded>100"`,
		"%bench seed reps=50 'as=r' variants=a,b\n// a comment\n# another\n",
		`%bench k export=out\ dir/x.txt baseline=other`,
		"%%c\nBENCH(a) {}", "%%c 9lives\nBENCH(a) {}", "%bench func", "%%rust k\nfn main() {}",
		"%bench seed\nx := 1", "%%c k\n\n", `%bench seed predict="a/b>1`, `%bench k 'it'\''s'`,
		"  \t%bench\tk\t\n", "%", "%\\", "%bench k a\\", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if words, err := SplitWords(code); err == nil {
			again, err := SplitWords(quoteWords(words))
			if err != nil || !reflect.DeepEqual(again, words) && len(words)+len(again) > 0 {
				t.Fatalf("words %q quoted as %s split into %q, %v", words, quoteWords(words), again, err)
			}
		}
		m, err := ParseMagic(code)
		if err != nil {
			var me *MagicError
			if !errors.As(err, &me) || me.Line < 1 || me.Line > 2 {
				t.Fatalf("refusal is not a MagicError on line 1 or 2: %#v", err)
			}
			return
		}
		if m.Kind == Glue {
			if m.Body != code || m.BodyLine != 1 || m.Name != "" || m.Args != nil {
				t.Fatalf("glue cell read as %+v", m)
			}
			return
		}
		if m.Kind == Help { // %help, %lsmagic, MAGIC? (the input " ?" found it)
			if text, err := HelpText(m.Name); (err == nil) == (text == "") {
				t.Fatalf("help on %q: %q, %v", m.Name, text, err)
			}
			return
		}
		if m.Kind != NativeC && m.Kind != NativeGo && m.Kind != NativeGoTest && m.Kind != Bench {
			t.Fatalf("unknown kind %d", m.Kind)
		}
		if !nameRE.MatchString(m.Name) || token.IsKeyword(m.Name) {
			t.Fatalf("accepted kernel name %q", m.Name)
		}
		if m.BodyLine != 2 {
			t.Fatalf("body of a magic cell on line %d", m.BodyLine)
		}
		if m.Kind == Bench && strings.TrimSpace(stripComments(m.Body)) != "" || m.Kind != Bench && strings.TrimSpace(m.Body) == "" {
			t.Fatalf("accepted kind %d with body %q", m.Kind, m.Body)
		}
		magic := map[Kind]string{NativeC: "%%c", NativeGo: "%%go", NativeGoTest: "%%gotest", Bench: "%bench"}[m.Kind]
		line := magic + " " + quoteWords(append([]string{m.Name}, m.Args...))
		back, err := ParseMagic(line + "\n" + m.Body)
		if err != nil || back.Kind != m.Kind || back.Name != m.Name || !reflect.DeepEqual(back.Args, m.Args) || back.Body != m.Body {
			t.Fatalf("magic %+v written as %s reads as %+v, %v", m, line, back, err)
		}
	})
}
