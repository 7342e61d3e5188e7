filenames = ["test_login.py", "test_signup.py", "helpers.py", "test_.py"]
for name in filenames:
    stem = name.removesuffix(".py")
    print(name, "->", stem.removeprefix("test_"))

branches = ["refs/heads/main", "refs/heads/feature/x", "refs/tags/v1.0"]
for b in branches:
    print(b.removeprefix("refs/heads/"))

print("aaa".removeprefix("a"), "".removesuffix("x"), "abc".removeprefix(""))

def strip_quotes(s: str) -> str:
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        return s[1:-1]
    return s

for s in ['"quoted"', "'single'", "plain", "'", '""']:
    print(repr(strip_quotes(s)))
