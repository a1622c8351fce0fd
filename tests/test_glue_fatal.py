"""Fatal errors of the Go runtime in a glue cell end the glue process, not
the kernel: the cell's error names the cause, the kernel answers the next
cell, and the declarations made before are back (issue 11, item 2)."""
import pytest

from test_protocol import kernel, outputs, run  # noqa: F401 (fixture)

CASES = [
    ("func down(n int) int { return down(n+1) + 1 }\ndown(0)", "stack overflow"),
    ("m := map[int]int{}\nfor g := 0; g < 4; g++ {\n\tgo func() {\n\t\tfor i := 0; ; i++ {\n\t\t\tm[i%64] = i\n\t\t}\n\t}()\n}\n"
     "time.Sleep(20 * time.Second)", "concurrent map writes"),
    ('time.AfterFunc(10*time.Millisecond, func() { panic("boom") })\ntime.Sleep(20 * time.Second)', "panic: boom"),
]


@pytest.mark.parametrize("code,cause", CASES)
def test_fatal_error_is_the_cells_error(kernel, code, cause):  # noqa: F811
    km, kc = kernel
    reply, _ = run(kc, "func twice(x int) int { return 2 * x }\nvar base = 21")
    assert reply["status"] == "ok"
    reply, msgs = run(kc, code, timeout=60)
    errors = outputs(msgs, "error")
    assert reply["status"] == "error" and errors, msgs
    assert errors[0]["ename"] == "FatalError" and cause in errors[0]["evalue"], errors[0]
    assert km.is_alive()
    reply, msgs = run(kc, "twice(base)")
    assert reply["status"] == "ok", msgs
    assert outputs(msgs, "execute_result")[0]["data"]["text/plain"] == "42"
