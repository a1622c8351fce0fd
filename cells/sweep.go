package cells

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchbook/benchbook/internal/harness"
	"github.com/benchbook/benchbook/internal/protocol"
	"github.com/benchbook/benchbook/stdlib/display"
	"github.com/benchbook/benchbook/stdlib/plot"
	"github.com/benchbook/benchbook/stdlib/report"
)

// benchSweep runs %bench NAME sweep=...: one build per point, every point
// measured under the protocol with the points interleaved (protocol.RunSweep),
// then per point a compact table with its result+json entry, the sweep
// plot and the sweep commentary. The glue variable (as=, default NAME) is
// the last point's result; every point is also bench.Get("NAME@N=4K").
func (s *Session) benchSweep(ctx context.Context, label string, name, as string, opt protocol.Options, pub display.Publisher) error {
	fail := func(err error) error { return cellError("BenchError", label, 1, err.Error()) }
	s.mu.Lock()
	spec, ok := s.specs[name]
	s.mu.Unlock()
	if !ok {
		if _, err := s.kernel(name); err != nil {
			return fail(err)
		}
		return fail(fmt.Errorf("sweep=: %s was not built from a %%%%c or %%%%go cell of this session", name))
	}
	if spec.Lang != "c" && spec.Lang != "go" {
		return fail(fmt.Errorf("sweep=: %s is a %s kernel; sweeps build %%%%c and %%%%go kernels", name, spec.Lang))
	}
	if opt.Layouts > 1 || opt.BaselineName != "" || opt.Load > 0 || opt.Counts || opt.Export != "" {
		return fail(errors.New("sweep= does not combine with layouts=, baseline=, load=, counts or export="))
	}
	if opt.ResultsDir == "" {
		opt.ResultsDir = s.opt.ResultsDir
	}
	// The first output is the progress line, which the headline replaces
	// (as a %bench's): the builds and the prediction follow it.
	id := display.NewID()
	start := time.Now()
	progress := progressLine(pub, id)
	progress(fmt.Sprintf("%%bench %s: sweep building", name), false)
	kernels, points, err := s.buildSweep(ctx, spec, opt, pub)
	if err != nil {
		progress(fmt.Sprintf("%%bench %s: sweep not run: a point did not build (below)", name), true)
		return err
	}
	if opt.Predict != "" {
		pub.Stream("stdout", fmt.Sprintf("prediction, written before the run: %s\n", opt.Predict))
	}
	runs := make([]protocol.SweepRun, len(points))
	for i := range points {
		runs[i] = protocol.SweepRun{Kernel: kernels[i], Point: points[i]}
	}
	progress(fmt.Sprintf("%%bench %s: sweep of %d points starting", name, len(points)), true)
	opt.Progress = func(p protocol.Progress) {
		progress(fmt.Sprintf("%%bench %s: %s (%.1f s)", name, p, time.Since(start).Seconds()), true)
	}
	rs, runErr := protocol.RunSweep(ctx, runs, opt)
	if rs == nil {
		progress(fmt.Sprintf("%%bench %s: sweep failed after %.1f s (below)", name, time.Since(start).Seconds()), true)
		return fail(runErr)
	}
	pub.Display(display.Bundle{Data: report.SweepHeadlineBundle(rs), Metadata: report.Role(report.RoleHeadline), ID: id}, true)
	s.showSweep(rs, pub)
	s.mu.Lock()
	for _, r := range rs {
		s.results[name+"@"+protocol.PointLabel(r)] = r
	}
	s.results[name] = rs[len(rs)-1]
	s.mu.Unlock()
	bound := "the last point bound to " + as
	if bindErr := s.bind(ctx, as, name, pub); bindErr != nil {
		bound = "not bound to " + as + " (" + as + " is as it was)"
		pub.Stream("stderr", fmt.Sprintf("the result could not be bound to %s in glue cells: %v\n", as, bindErr))
	}
	switch {
	case errors.Is(runErr, protocol.ErrInterrupted):
		return cellError("Interrupted", label, 1, "%bench was interrupted; the partial results are above ("+bound+") and on disk")
	case runErr != nil:
		return fail(runErr)
	}
	return nil
}

// showSweep publishes a sweep: per point a compact table with its
// result+json entry, then the plot and the commentary.
func (s *Session) showSweep(rs []*protocol.Result, pub display.Publisher) {
	for _, r := range rs {
		pub.Display(display.Bundle{Data: report.SweepPoint(r), Metadata: report.Role(report.RoleResult), ID: display.NewID()}, false)
	}
	if f, err := plot.Sweep(rs); err == nil {
		pub.Display(display.Bundle{Data: f.Bundle(), Metadata: report.WithRole(f.Metadata(), report.RolePlot), ID: display.NewID()}, false)
	} else {
		pub.Stream("stderr", fmt.Sprintf("the sweep plot could not be drawn: %v\n", err))
	}
	pub.Display(display.Bundle{Data: report.SweepCommentary(rs), Metadata: report.Role(report.RoleCommentary), ID: display.NewID()}, false)
}

// buildSweep builds one kernel per point (each its own cache entry) and
// gives each point its working set. bytes= is checked against the memory
// available before any build; without it, a one-axis sweep builds its two
// smallest points first and refuses when the line through their static
// data puts the largest point beyond the memory available.
func (s *Session) buildSweep(ctx context.Context, spec harness.Spec, opt protocol.Options, pub display.Publisher) ([]*harness.Kernel, []protocol.SweepPoint, error) {
	fail := func(err error) error { return cellError("BenchError", spec.Label, 0, err.Error()) }
	axes := opt.Sweep
	pts := protocol.Points(axes)
	params := make([]string, len(axes))
	for i, a := range axes {
		params[i] = a.Param
	}
	avail, haveMem := memAvailable()
	if opt.Bytes != nil && haveMem {
		largest, _, _ := protocol.WorkingSet(pts, params, nil, opt.Bytes)
		for i, b := range largest {
			if *b > avail {
				return nil, nil, fail(fmt.Errorf("sweep: the point %s needs %sB (bytes=%s) and the machine has %sB available (MemAvailable): refused before building",
					pointText(params, pts[i]), protocol.FormatBytes(*b), opt.Bytes, protocol.FormatBytes(avail)))
			}
		}
	}
	// Build order: by the product of the values, smallest first.
	order := make([]int, len(pts))
	for i := range order {
		order[i] = i
	}
	prod := func(p []int64) float64 {
		x := 1.0
		for _, v := range p {
			x *= float64(v)
		}
		return x
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := prod(pts[a]), prod(pts[b])
		switch {
		case pa < pb:
			return -1
		case pa > pb:
			return 1
		}
		return 0
	})
	kernels := make([]*harness.Kernel, len(pts))
	sections := make([]int64, len(pts))
	cached := 0
	for n, i := range order {
		k, err := buildPoint(ctx, spec, params, pts[i])
		if err != nil {
			return nil, nil, err
		}
		if k.Cached {
			cached++
		}
		kernels[i] = k
		if sections[i], err = protocol.SectionBytes(k.Binary); err != nil {
			return nil, nil, fail(err)
		}
		if n == 1 && len(axes) == 1 && opt.Bytes == nil && haveMem {
			a, b := order[0], order[1]
			slope := float64(sections[b]-sections[a]) / float64(pts[b][0]-pts[a][0])
			top := order[len(order)-1]
			est := float64(sections[a]) + slope*float64(pts[top][0]-pts[a][0])
			if est > float64(avail) {
				return nil, nil, fail(fmt.Errorf("sweep: the point %s would hold about %sB of static data (the line through %s and %s) and the machine has %sB available (MemAvailable): refused before building it",
					pointText(params, pts[top]), protocol.FormatBytes(int64(est)), pointText(params, pts[a]), pointText(params, pts[b]), protocol.FormatBytes(avail)))
			}
		}
	}
	pub.Stream("stdout", fmt.Sprintf("sweep of %s: %d builds of %s (%d from the cache)\n", strings.Join(params, " x "), len(pts), spec.Name, cached))
	bytes, rule, err := protocol.WorkingSet(pts, params, sections, opt.Bytes)
	if err != nil {
		return nil, nil, fail(err)
	}
	if haveMem {
		for i, b := range sections {
			if b > avail {
				return nil, nil, fail(fmt.Errorf("sweep: the point %s holds %sB of static data and the machine has %sB available (MemAvailable): refused before running",
					pointText(params, pts[i]), protocol.FormatBytes(b), protocol.FormatBytes(avail)))
			}
		}
	}
	id := sweepID()
	points := make([]protocol.SweepPoint, len(pts))
	for i, p := range pts {
		sp := protocol.SweepPoint{ID: id, Index: i, Of: len(pts), Param: params[0], Value: p[0], Bytes: bytes[i], BytesRule: rule,
			SectionBytes: sections[i], Elements: opt.Elements}
		if len(params) > 1 {
			sp.Params = map[string]int64{}
			for j, name := range params {
				sp.Params[name] = p[j]
			}
		}
		if sp.Elements == 0 {
			sp.Elements = int64(prod(p))
		}
		points[i] = sp
	}
	return kernels, points, nil
}

func pointText(params []string, p []int64) string {
	parts := make([]string, len(p))
	for i, v := range p {
		parts[i] = params[i] + "=" + protocol.FormatSize(v)
	}
	return strings.Join(parts, ",")
}

// redefinedRE is the C compiler's diagnostic for a macro the cell defines
// over the -D of the command line: "Cell[3]:2: warning: "N" redefined".
var redefinedRE = regexp.MustCompile(`(?m)^(\S+?):(\d+):(?:\d+:)? (?:warning|error): "(\w+)" redefined`)

// buildPoint builds the kernel for one point. C: the cell's flags plus
// -DPARAM=value per axis; a cell that #defines PARAM without #ifndef is
// refused, naming the line. Go: the cell's top-level "const PARAM = ..."
// line gets the point's value, or "const PARAM = value" is added at the end
// when the cell declares none.
func buildPoint(ctx context.Context, spec harness.Spec, params []string, p []int64) (*harness.Kernel, error) {
	pt := pointText(params, p)
	s := spec
	switch spec.Lang {
	case "c":
		flags := spec.Flags
		if flags == nil {
			flags = harness.DefaultFlags("c")
		}
		s.Flags = append([]string{}, flags...)
		for i, name := range params {
			s.Flags = append(s.Flags, fmt.Sprintf("-D%s=%d", name, p[i]))
		}
	case "go":
		s.Code = goWithConsts(spec.Code, params, p)
	}
	k, err := harness.Build(ctx, s)
	if err != nil {
		var be *harness.Error
		if errors.As(err, &be) {
			return nil, cellError(buildErrorName(be.Stage), spec.Label, be.Line, fmt.Sprintf("sweep point %s does not build:\n%s", pt, be.Message))
		}
		return nil, cellError("BuildError", spec.Label, 0, fmt.Sprintf("sweep point %s does not build: %v", pt, err))
	}
	if spec.Lang == "c" {
		for _, m := range redefinedRE.FindAllStringSubmatch(k.Warnings, -1) {
			if slices.Contains(params, m[3]) {
				line, _ := strconv.Atoi(m[2])
				return nil, cellError("KernelError", spec.Label, line, fmt.Sprintf(
					"sweep=%s: the cell #defines %s itself at line %d, which overrides the sweep's -D%s=%d: write it as\n#ifndef %s\n#define %s ...\n#endif",
					m[3], m[3], line, m[3], p[slices.Index(params, m[3])], m[3], m[3]))
			}
		}
	}
	return k, nil
}

// goConstRE is a top-level one-line constant declaration.
func goConstRE(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^const\s+` + regexp.QuoteMeta(name) + `\s*(\w+\s*)?=.*$`)
}

// goWithConsts gives a Go cell the point's values: each "const PARAM =
// ..." line at the start of a line is replaced by "const PARAM = value"
// (its type kept), on the same line so positions stay cell lines; a cell
// without one gets it appended.
func goWithConsts(code string, params []string, p []int64) string {
	for i, name := range params {
		re := goConstRE(name)
		if loc := re.FindStringSubmatchIndex(code); loc != nil {
			typ := ""
			if loc[2] >= 0 {
				typ = strings.TrimSpace(code[loc[2]:loc[3]]) + " "
			}
			code = code[:loc[0]] + fmt.Sprintf("const %s %s= %d", name, typ, p[i]) + code[loc[1]:]
			continue
		}
		code += fmt.Sprintf("\nconst %s = %d\n", name, p[i])
	}
	return code
}

// memAvailable is MemAvailable of /proc/meminfo in bytes.
func memAvailable() (int64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			fields := strings.Fields(rest)
			if len(fields) > 0 {
				if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
					return kb * 1024, true
				}
			}
		}
	}
	return 0, false
}

func sweepID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "sweep-" + hex.EncodeToString(b[:])
}
