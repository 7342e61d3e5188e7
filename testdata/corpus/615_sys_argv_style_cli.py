import sys


def parse_args(argv):
    opts = {"verbose": False, "limit": 10, "files": []}
    it = iter(argv)
    for arg in it:
        if arg in ("-v", "--verbose"):
            opts["verbose"] = True
        elif arg == "--limit":
            opts["limit"] = int(next(it))
        elif arg.startswith("--limit="):
            opts["limit"] = int(arg.split("=", 1)[1])
        elif arg.startswith("-"):
            print(f"unknown option {arg}")
            sys.exit(2)
        else:
            opts["files"].append(arg)
    return opts


for argv in (["-v", "a.txt", "--limit", "3"], ["--limit=7", "b.txt", "c.txt"], ["--bad"]):
    try:
        print(parse_args(argv))
    except SystemExit as e:
        print("usage error, exit status", e.code)

args = sys.argv[1:]
print("no real arguments:", args == [])
print(type(sys.argv[0]).__name__)
