# Long strings are split into adjacent literals when they do not fit.
import pprint

record = {
    "summary": "The nightly job failed because the upstream service returned HTTP 503 for eleven minutes.",
    "steps": ["fetch", "parse", "store"],
    "log": "line one of the log\nline two of the log\nline three is a much longer line of the log\n",
}
pprint.pprint(record, width=50)
print(pprint.pformat("a b c d e f g h i j k l m n o p q r s t u v w x y z " * 2, width=30))
print(pprint.pformat(["short", "x" * 60], width=40))
