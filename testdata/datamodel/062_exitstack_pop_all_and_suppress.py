# ExitStack: callbacks run in reverse order; a callback cannot suppress, but an
# entered context manager can; pop_all moves the callbacks out.
from contextlib import ExitStack, suppress

with ExitStack() as stack:
    stack.enter_context(suppress(ZeroDivisionError))
    stack.callback(print, "cleanup runs")
    1 / 0
print("suppressed through the stack")
with ExitStack() as outer:
    outer.callback(print, "moved callback")
    later = outer.pop_all()
print("outer closed")
later.close()
