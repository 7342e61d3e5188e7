from difflib import get_close_matches, SequenceMatcher

# Suggest the command or column a user meant, as a CLI helper does.
commands = ["install", "uninstall", "update", "upgrade", "list", "show", "search", "freeze", "download"]
for typo in ["instal", "upgarde", "serch", "lst", "frezee", "xyz", "updte"]:
    matches = get_close_matches(typo, commands)
    hint = f"did you mean {matches[0]!r}?" if matches else "no suggestion"
    print(f"{typo:8} -> {matches} ({hint})")

columns = ["customer_id", "customer_name", "order_date", "order_total", "ship_date"]
print(get_close_matches("custmer_name", columns, n=1))
print(get_close_matches("date", columns, n=3, cutoff=0.3))

# Rank near-duplicate titles by similarity.
titles = [
    "Fix login bug on Safari",
    "Fix login bug in Safari",
    "Add dark mode",
    "Login bug fix for safari browser",
    "Refactor payment module",
]
base = titles[0]
scores = sorted(((round(SequenceMatcher(None, base.lower(), t.lower()).ratio(), 3), t) for t in titles[1:]), reverse=True)
for score, t in scores:
    print(f"{score:.3f}  {t}")

sm = SequenceMatcher(None, "the quick brown fox", "the quack brown box")
print(sm.get_matching_blocks())
print(sm.find_longest_match(0, 19, 0, 19))
print(round(sm.quick_ratio(), 4), round(sm.real_quick_ratio(), 4))
