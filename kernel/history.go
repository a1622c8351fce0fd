package kernel

// currentSession is the history session number of this kernel's session;
// requests may also name it 0.
const currentSession = 1

// defaultTail is the number of entries a tail request without n returns,
// as IPython's HistoryManager.get_tail.
const defaultTail = 10

// historyEntry is one executed input stored in history.
type historyEntry struct {
	line   int
	input  string
	output *string // text/plain of the execute_result, nil when none
}

// history holds this session's executed inputs, in execution order.
type history struct {
	entries []historyEntry
}

// add stores an input under line (its execution count) with its output.
func (h *history) add(line int, input string, output *string) {
	h.entries = append(h.entries, historyEntry{line: line, input: input, output: output})
}

// query answers a history_request with tuples (session, line, input) or,
// when req.Output, (session, line, [input, output]).
func (h *history) query(req historyRequest) []any {
	var picked []historyEntry
	switch req.HistAccessType {
	case "tail":
		picked = lastN(h.entries, req.N)
	case "range":
		picked = h.lines(req)
	case "search":
		picked = h.search(req)
	}
	out := make([]any, 0, len(picked))
	for _, e := range picked {
		if req.Output {
			var o any
			if e.output != nil {
				o = *e.output
			}
			out = append(out, []any{currentSession, e.line, []any{e.input, o}})
		} else {
			out = append(out, []any{currentSession, e.line, e.input})
		}
	}
	return out
}

// lastN returns the last *n entries (defaultTail when n is nil).
func lastN(entries []historyEntry, n *int) []historyEntry {
	k := defaultTail
	if n != nil {
		k = *n
	}
	if k <= 0 {
		return nil
	}
	if k > len(entries) {
		k = len(entries)
	}
	return entries[len(entries)-k:]
}

// lines returns the entries of the range request's session with start <=
// line < stop (stop nil or 0: to the end), as IPython's get_range.
func (h *history) lines(req historyRequest) []historyEntry {
	if req.Session != 0 && req.Session != currentSession {
		return nil
	}
	var out []historyEntry
	for _, e := range h.entries {
		if e.line < req.Start {
			continue
		}
		if req.Stop != nil && *req.Stop > 0 && e.line >= *req.Stop {
			continue
		}
		out = append(out, e)
	}
	return out
}

// search returns the entries whose whole input matches the glob pattern;
// with unique only the last of equal inputs is kept; n keeps the last n.
func (h *history) search(req historyRequest) []historyEntry {
	last := make(map[string]int)
	for i, e := range h.entries {
		last[e.input] = i
	}
	var out []historyEntry
	for i, e := range h.entries {
		if !globMatch(req.Pattern, e.input) || (req.Unique && last[e.input] != i) {
			continue
		}
		out = append(out, e)
	}
	if req.N != nil {
		return lastN(out, req.N)
	}
	return out
}

// globMatch reports whether s matches pattern as a whole, where * matches
// any run of characters (newlines and slashes included) and ? any one
// character; everything else matches itself. It backtracks only to the last
// star, so it runs in O(len(pattern)*len(s)).
func globMatch(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
