import copy
import math
from collections import ChainMap

# Snapshots of a layered settings object.
defaults = {"retries": 3, "hosts": ["a", "b"]}
overrides = {"retries": 5}
settings = ChainMap(overrides, defaults)
shallow = copy.copy(settings)
deep = copy.deepcopy(settings)
shallow["retries"] = 9
deep["hosts"].append("c")
print(settings, shallow, deep, sep="\n")
print(shallow.maps[1] is defaults, deep.maps[1] is defaults)

# Logarithms of integers too large for a float.
for n in (10**400, 2**5000 + 1, 3**1000, math.factorial(300)):
    print(math.log(n), math.log2(n), math.log10(n), math.log(n, 3))
print(math.ulp(1.0), math.nextafter(1.0, 0.0), math.ulp(1e300))
