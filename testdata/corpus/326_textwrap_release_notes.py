# Format release notes as wrapped bullet points for a terminal.
import textwrap

notes = [
    "Added a --dry-run flag that shows what would change without touching any files.",
    "Fixed a crash when the configuration file contained a trailing comma in the list of plugins.",
    "Performance: start-up is now roughly twice as fast on large, multi-package repositories.",
    "Deprecated the legacy `sync` command; use `pull` followed by `push` instead.",
]

print("Release 2.4.0")
print("=" * 13)
for note in notes:
    print(textwrap.fill(note, width=48, initial_indent="  - ", subsequent_indent="    "))
print()
summary = " ".join(notes)
print(textwrap.shorten(summary, width=70))
print(textwrap.shorten(summary, width=70, placeholder=" (more)"))
