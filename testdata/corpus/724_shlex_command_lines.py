"""Parse and rebuild command lines with shlex."""
import shlex

commands = [
    'git commit -m "fix: handle empty input" --author="Ann Lee <ann@x.org>"',
    "grep -rn 'TODO|FIXME' src/ --include=*.py",
    r'echo a\ b "c \"quoted\" d" e',
    'deploy --env prod  # go live',
    "rsync -av ~/data/ backup:'/srv/my data'",
]

for cmd in commands:
    words = shlex.split(cmd, comments=True)
    prog, args = words[0], words[1:]
    flags = [a for a in args if a.startswith("-")]
    print(f"{prog:<7} {len(args)} args, flags={flags}")
    print("   ", words)
    rebuilt = shlex.join(words)
    assert shlex.split(rebuilt) == words
    print("   ", rebuilt)

print(shlex.split("x # not a comment by default"))
for s in ["", "plain", "two words", "it's", "$HOME/*.txt", "a=b,c:d@e%f+g"]:
    print(repr(s), "->", shlex.quote(s))
for bad in ['say "hi', "trailing\\"]:
    try:
        shlex.split(bad)
    except ValueError as e:
        print("ValueError:", e)
