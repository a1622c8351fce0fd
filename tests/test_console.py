"""What jupyter console asks the kernel while a user types a %%c cell line by
line: is_complete after every Enter. The cell must stay open until its braces
balance and an empty line ends it (IPython's rule for cell magics), and then
run as one cell."""
from jupyter_client.manager import start_new_kernel

from test_protocol import run, outputs

TYPED = ["%%c tiny", "static unsigned x = 1;", "BENCH(a) {", "    x = x * 3u + 1u;", "    bench_sink(x);", "}",
         "BENCH(b) { bench_sink(x); }", ""]


def test_a_c_cell_typed_line_by_line():
    km, kc = start_new_kernel(kernel_name="benchbook", startup_timeout=30)
    try:
        statuses = []
        for i in range(1, len(TYPED) + 1):
            code = "\n".join(TYPED[:i])
            kc.is_complete(code)
            reply = kc.get_shell_msg(timeout=10)
            statuses.append(reply["content"]["status"])
        assert statuses == ["incomplete"] * (len(TYPED) - 1) + ["complete"], statuses
        reply, msgs = run(kc, "\n".join(TYPED), timeout=120)
        assert reply["status"] == "ok", reply
        builds = [d["data"]["application/vnd.benchbook.build+json"] for d in outputs(msgs, "display_data")
                  if "application/vnd.benchbook.build+json" in d["data"]]
        assert [v["name"] for v in builds[0]["variants"]] == ["a", "b"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
