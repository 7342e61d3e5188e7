import string
import functools

CLASSES = {
    "lower": string.ascii_lowercase,
    "upper": string.ascii_uppercase,
    "digit": string.digits,
    "symbol": string.punctuation,
}


def check(pw, min_len=8, need=3):
    problems = []
    if len(pw) < min_len:
        problems.append(f"shorter than {min_len}")
    present = [name for name, chars in CLASSES.items() if any(c in chars for c in pw)]
    if len(present) < need:
        problems.append(f"only {len(present)} of {need} character classes ({', '.join(present) or 'none'})")
    if any(c in string.whitespace for c in pw):
        problems.append("contains whitespace")
    bad = sorted({c for c in pw if c not in string.printable})
    if bad:
        problems.append(f"non-printable or non-ASCII: {bad}")
    return problems


strict = functools.partial(check, min_len=12, need=4)
for pw in ["hunter2", "Tr0ub4dor&3", "correct horse", "ÄpfelKuchen99!", "S3cure!Passw0rd"]:
    normal, hard = check(pw), strict(pw)
    print(f"{pw!r:20} normal={'ok' if not normal else '; '.join(normal)}")
    print(f"{'':20} strict={'ok' if not hard else '; '.join(hard)}")
print(strict.keywords, strict.args, strict.func is check)
print(len(string.printable), repr(string.whitespace), string.hexdigits, string.octdigits)
