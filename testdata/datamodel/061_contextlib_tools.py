# suppress, nullcontext, closing, redirect_stdout, ExitStack: return values
# of their __enter__ and what they swallow.
import io
from contextlib import suppress, nullcontext, closing, redirect_stdout, ExitStack


with suppress(KeyError, IndexError) as s:
    [][0]
print("suppress enter:", s)
with nullcontext(42) as v:
    print("nullcontext:", v)


class Res:
    def close(self):
        print("closed")


with closing(Res()) as r:
    print("closing gives", type(r).__name__)
buf = io.StringIO()
with redirect_stdout(buf) as target:
    print("hidden")
print(target is buf, repr(buf.getvalue()))
with ExitStack() as stack:
    for i in range(3):
        stack.callback(print, "callback", i)
    print("stack body")
