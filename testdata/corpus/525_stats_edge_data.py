# Agent-style: summary statistics over messy sensor data.
import math
import statistics as st
from collections import Counter

readings = [12.5, 13.0, float("nan"), 12.75, float("inf"), 11.5]
flags = [r > 12 for r in readings if not math.isnan(r)]
print("flags:", flags, "share high:", st.mean(flags), st.median(flags))

clean = [r for r in readings if math.isfinite(r)]
print("clean mean", st.mean(clean), "fmean", st.fmean(clean), "median", st.median(clean))
print("stdev", round(st.stdev(clean), 6), "quantiles", st.quantiles(clean, n=4))

print("with inf:", st.mean([1.0, float("inf")]), st.fmean([1.0, float("inf")]))
print("with nan:", st.mean([1.0, float("nan")]), st.variance([1.0, 2.0, float("nan")]))
for fn in (st.stdev, st.pstdev):
    try:
        fn([1.0, float("inf")])
    except AttributeError as e:
        print(fn.__name__, "AttributeError:", e)
try:
    st.fmean([float("inf"), float("-inf")])
except ValueError as e:
    print("fmean:", e)
print("harmonic", st.harmonic_mean([float("nan"), 2.0]), st.harmonic_mean([float("inf"), 2.0]))
print("geometric", st.geometric_mean([1.0, float("inf")]))

votes = Counter({"yes": True, "no": False})
print(votes, votes.total(), votes + Counter(yes=2))
print(st.quantiles([True, False, True, True], n=4))
