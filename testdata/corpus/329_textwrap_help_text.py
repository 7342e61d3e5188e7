# Print command-line help with options and wrapped descriptions.
import textwrap

options = [
    ("-h, --help", "Show this message and exit."),
    ("-o, --output FILE", "Write the report to FILE instead of standard output; the directory must exist."),
    ("-v, --verbose", "Print every step as it happens, including the HTTP requests made to the API."),
    ("--max-retries N", "Retry failed requests up to N times (default: 3)."),
]

col = 22
wrapper = textwrap.TextWrapper(width=72, subsequent_indent=" " * (col + 2))
print("usage: report [options] INPUT")
print()
for flag, desc in options:
    first = f"  {flag:<{col}}"
    wrapper.initial_indent = first
    print(wrapper.fill(desc))

epilog = "Report bugs at https://example.org/issues/new?template=bug-report.md with the output of --verbose."
print()
for line in textwrap.wrap(epilog, width=40):
    print(line)
print(textwrap.wrap(epilog, width=40, break_long_words=False))
