"""jupyter_kernel_test's conformance suite, with Go samples for every test a
Go kernel can meet (the pager test is for IPython's ?-help, which Go has not)."""
import unittest

import jupyter_kernel_test as jkt


class BenchbookKernelTests(jkt.KernelTests):
    kernel_name = "benchbook"
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'fmt.Fprintln(os.Stderr, "to stderr")'

    # Matches replace the word at the cursor (cursor_start is after the dot).
    completion_samples = [
        {"text": "fmt.Sprin", "matches": {"Sprint", "Sprintf", "Sprintln"}},
        {"text": "strings.ToUp", "matches": {"ToUpper", "ToUpperSpecial"}},
        {"text": "%ben", "matches": {"%bench"}},
    ]

    complete_code_samples = ["x := 1", "func f() int { return 1 }", "fmt.Println(1)"]
    incomplete_code_samples = ["func f() {", "for i := 0; i < 3; i++ {", "x := []int{1,"]
    invalid_code_samples = ["x := )", "func {}}"]

    code_generate_error = 'panic("boom")'

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": 'strings.Repeat("ab", 2)', "result": '"abab"'},
    ]

    code_display_data = [
        {"code": '_ = display.HTML("<b>bold</b>")', "mime": "text/html"},
        {"code": '_ = display.Markdown("*md*")', "mime": "text/markdown"},
        {"code": '_ = display.PNG([]byte("\\x89PNG\\r\\n\\x1a\\n"))', "mime": "image/png"},
    ]

    supported_history_operations = ("tail", "range", "search")
    code_history_pattern = "6 * 7"

    code_inspect_sample = "strings.ToUpper"

    code_clear_output = 'fmt.Println("before"); display.Clear()'


if __name__ == "__main__":
    unittest.main()
