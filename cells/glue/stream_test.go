package glue

import (
	"strings"
	"testing"
	"time"
)

// Requirement 3: stdout and stderr stream while the cell runs.

func TestOutputStreamsWhileTheCellRuns(t *testing.T) {
	s := newSession(t, Options{})
	code := "for i := 0; i < 3; i++ {\n\tfmt.Println(\"tick\", i)\n\ttime.Sleep(300 * time.Millisecond)\n}"
	_, pub := mustRun(t, s, "Cell [1]", code)
	returned := time.Now()
	chunks := pub.kinds("stream")
	if len(chunks) < 2 {
		t.Fatalf("got %d stream chunks, want one per tick (they arrive 300 ms apart): %+v", len(chunks), chunks)
	}
	if !chunks[0].at.Before(returned.Add(-250 * time.Millisecond)) {
		t.Errorf("first chunk arrived at %v, Eval returned at %v: not while the cell ran", chunks[0].at, returned)
	}
	if got, want := pub.text("stdout"), "tick 0\ntick 1\ntick 2\n"; got != want {
		t.Errorf("stdout = %q, want %q", got, want)
	}
}

func TestOsStdoutAndStderrAreCaptured(t *testing.T) {
	s := newSession(t, Options{})
	code := "os.Stdout.Write([]byte(\"raw out\\n\"))\nfmt.Fprintln(os.Stderr, \"raw err\")\nfmt.Print(\"no newline\")\nlog.SetFlags(0)\nlog.Print(\"logged\")"
	_, pub := mustRun(t, s, "Cell [1]", code)
	out, errText := pub.text("stdout"), pub.text("stderr")
	for _, want := range []string{"raw out\n", "no newline"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout %q lacks %q", out, want)
		}
	}
	for _, want := range []string{"raw err\n", "logged\n"} {
		if !strings.Contains(errText, want) {
			t.Errorf("stderr %q lacks %q", errText, want)
		}
	}
}

func TestPartialLinesAreNotSentByteByByte(t *testing.T) {
	s := newSession(t, Options{})
	_, pub := mustRun(t, s, "Cell [1]", "for i := 0; i < 200; i++ { fmt.Print(\"x\") }\nfmt.Println()")
	if got := pub.text("stdout"); got != strings.Repeat("x", 200)+"\n" {
		t.Fatalf("stdout = %q", got)
	}
	if n := len(pub.kinds("stream")); n > 20 {
		t.Errorf("200 one-byte prints came in %d messages; want them grouped", n)
	}
}

func TestOutputBetweenCellsGoesToTheNextCell(t *testing.T) {
	s := newSession(t, Options{})
	mustRun(t, s, "Cell [1]", "go func() { time.Sleep(200 * time.Millisecond); fmt.Println(\"late line\") }()")
	time.Sleep(600 * time.Millisecond)
	_, pub := mustRun(t, s, "Cell [2]", "1")
	if got := pub.text("stdout"); got != "late line\n" {
		t.Errorf("next cell's stdout = %q, want the late line", got)
	}
}
