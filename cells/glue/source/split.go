package source

import (
	"go/scanner"
	"go/token"
	"strings"
)

// A cell is split twice: into segments (runs of Go lines and single "!"
// shell lines, in order), then each Go segment into top-level items (one
// import, declaration or statement each), which is the unit the session
// compiles and runs.

// Segment is a run of Go lines or one shell line.
type Segment struct {
	Shell bool
	Text  string // Go source, or the shell command after "!"
	Line  int    // 1-based cell line of its first line
}

// SplitCell splits a cell into segments. A line whose first non-blank
// character is "!" is a shell line when the Go lines before it are complete
// at the top level (no open bracket, no pending operator), so that a Go line
// such as "!ok {" inside an expression stays Go.
func SplitCell(code string) []Segment {
	lines := strings.Split(code, "\n")
	var segs []Segment
	var cur []string
	start := 1
	flush := func(next int) {
		if len(cur) > 0 {
			segs = append(segs, Segment{Text: strings.Join(cur, "\n"), Line: start})
		}
		cur, start = nil, next
	}
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(trimmed, "!") && summarize(strings.Join(cur, "\n")).topLevel() {
			flush(i + 2)
			segs = append(segs, Segment{Shell: true, Text: strings.TrimSpace(trimmed[1:]), Line: i + 1})
			continue
		}
		cur = append(cur, l)
	}
	flush(0)
	return segs
}

// scanSummary describes where Go source stops: open brackets, an
// unterminated raw string or comment, and the last token.
type scanSummary struct {
	depth      int         // brackets opened and not closed
	unbalanced bool        // a closing bracket without its opener
	openEOF    bool        // a raw string or comment runs to the end
	badLit     bool        // a literal that more input cannot fix
	last       token.Token // last token, not counting comments and automatic semicolons
	lastLine   int         // line of that token
}

// summarize scans src with go/scanner.
func summarize(src string) scanSummary {
	var sum scanSummary
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), func(_ token.Position, msg string) {
		switch {
		case strings.Contains(msg, "raw string literal not terminated"), strings.Contains(msg, "comment not terminated"):
			sum.openEOF = true
		case strings.Contains(msg, "not terminated"):
			sum.badLit = true
		}
	}, 0)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			sum.depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			sum.depth--
			if sum.depth < 0 {
				sum.unbalanced = true
				sum.depth = 0
			}
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		sum.last, sum.lastLine = tok, file.Line(pos)
	}
	return sum
}

// continues reports whether a line ending in tok must go on.
func continues(tok token.Token) bool {
	switch {
	case tok.IsOperator() && tok != token.RPAREN && tok != token.RBRACK && tok != token.RBRACE &&
		tok != token.INC && tok != token.DEC && tok != token.SEMICOLON:
		return true
	}
	return false
}

// topLevel reports whether source with this summary ends at the top level,
// so that a new top-level line may follow.
func (s scanSummary) topLevel() bool {
	return s.depth == 0 && !s.openEOF && !continues(s.last)
}

// Kind says how an item is compiled.
type Kind int

const (
	KindImport Kind = iota // an import declaration
	KindDecl               // a package-level declaration: func, method, type, var, const
	KindStmt               // a statement
)

// Item is one top-level import, declaration or statement of a Go segment.
type Item struct {
	Kind Kind
	Text string // its source, from its first token to the end of its last
	Line int    // cell line of Text[0]
	Col  int    // 1-based column of Text[0]
	Doc  string // the comment lines right above it
}

// SplitItems splits a Go segment at the semicolons (written or implied by a
// newline) that are outside any bracket and outside the header of a for, if
// or switch statement (which ends at its opening brace).
func SplitItems(seg Segment) []Item {
	sp := &itemSplitter{seg: seg, start: -1, docLine: -10}
	fset := token.NewFileSet()
	sp.file = fset.AddFile("", -1, len(seg.Text))
	var sc scanner.Scanner
	sc.Init(sp.file, []byte(seg.Text), func(token.Position, string) {}, scanner.ScanComments)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		sp.token(sp.file.Offset(pos), tok, lit)
	}
	sp.finish()
	return sp.items
}

// itemSplitter is the state of SplitItems.
type itemSplitter struct {
	seg        Segment
	file       *token.File
	items      []Item
	depth      int  // open brackets
	header     bool // in the header of a for, if or switch at depth 0
	start, end int  // offsets of the current item, start -1 if none
	doc        []string
	docLine    int // line where the comments in doc end
}

func (sp *itemSplitter) token(off int, tok token.Token, lit string) {
	switch {
	case tok == token.COMMENT:
		sp.comment(off, lit)
		return
	case tok == token.SEMICOLON && sp.depth == 0 && !sp.header:
		sp.finish()
		return
	}
	if sp.start < 0 {
		sp.start = off
	}
	switch tok {
	case token.FOR, token.IF, token.SWITCH:
		sp.header = sp.header || sp.depth == 0
	case token.LBRACE:
		sp.header = sp.header && sp.depth != 0
		sp.depth++
	case token.LPAREN, token.LBRACK:
		sp.depth++
	case token.RPAREN, token.RBRACK, token.RBRACE:
		sp.depth = max(0, sp.depth-1)
	}
	if tok != token.SEMICOLON || lit == ";" { // automatic semicolons are not text
		sp.end = min(len(sp.seg.Text), off+tokenLen(tok, lit))
	}
}

// comment keeps the comment lines right above an item as its doc.
func (sp *itemSplitter) comment(off int, lit string) {
	if sp.start >= 0 || sp.depth > 0 {
		return
	}
	if sp.file.Line(sp.file.Pos(off)) != sp.docLine+1 {
		sp.doc = nil
	}
	sp.doc = append(sp.doc, lit)
	sp.docLine = sp.file.Line(sp.file.Pos(off + len(lit)))
}

// finish ends the current item, if any.
func (sp *itemSplitter) finish() {
	if sp.start >= 0 {
		text := sp.seg.Text[sp.start:sp.end]
		p := sp.file.Position(sp.file.Pos(sp.start))
		it := Item{Kind: classify(text), Text: text, Line: sp.seg.Line + p.Line - 1, Col: p.Column}
		if sp.docLine == p.Line-1 {
			it.Doc = strings.Join(sp.doc, "\n")
		}
		sp.items = append(sp.items, it)
	}
	sp.start, sp.doc, sp.docLine = -1, nil, -10
}

// tokenLen is the length in the source of a token.
func tokenLen(tok token.Token, lit string) int {
	if lit != "" {
		return len(lit)
	}
	return len(tok.String())
}

// classify says whether an item is an import, a declaration or a statement.
// A func keyword starts a declaration when a name follows it, or a receiver
// then a name; otherwise it starts a function literal.
func classify(text string) Kind {
	toks := firstTokens(text, 64)
	if len(toks) == 0 {
		return KindStmt
	}
	switch toks[0] {
	case token.IMPORT:
		return KindImport
	case token.TYPE, token.VAR, token.CONST:
		return KindDecl
	case token.FUNC:
		return classifyFunc(toks)
	}
	return KindStmt
}

func classifyFunc(toks []token.Token) Kind {
	if len(toks) > 1 && toks[1] == token.IDENT {
		return KindDecl
	}
	if len(toks) < 2 || toks[1] != token.LPAREN {
		return KindStmt
	}
	depth := 0
	for i := 1; i < len(toks); i++ {
		switch toks[i] {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			depth--
			if depth == 0 {
				if i+2 < len(toks) && toks[i+1] == token.IDENT && (toks[i+2] == token.LPAREN || toks[i+2] == token.LBRACK) {
					return KindDecl
				}
				return KindStmt
			}
		}
	}
	return KindStmt
}

// firstTokens returns up to n tokens of src, without comments.
func firstTokens(src string, n int) []token.Token {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), func(token.Position, string) {}, 0)
	var toks []token.Token
	for len(toks) < n {
		_, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		toks = append(toks, tok)
	}
	return toks
}
