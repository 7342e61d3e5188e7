# Show two configurations side by side, sorted and unsorted.
import pprint

defaults = {"timeout": 30, "retries": 3, "hosts": ["a.internal", "b.internal"], "tls": {"verify": True, "ca": None}}
override = dict(defaults, retries=5, hosts=defaults["hosts"] + ["c.internal"])

print(pprint.pformat(override, width=50))
print(pprint.pformat(override, width=50, sort_dicts=False))
changed = {k: (defaults[k], override[k]) for k in defaults if defaults[k] != override[k]}
pprint.pprint(changed, width=40)
pprint.pp(changed, width=40)
