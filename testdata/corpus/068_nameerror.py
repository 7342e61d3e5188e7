def compute():
    # A typo in a helper name only shows up when the line runs.
    return calculate_total([1, 2, 3])


try:
    print(undefined_variable)
except NameError as e:
    print("caught:", e)

try:
    result = missing_function(3)
except NameError:
    result = "fallback"
print(result)

try:
    compute()
except NameError as e:
    print("in compute:", e)

try:
    total = sum(values_that_do_not_exist)
except Exception as e:
    print(type(e).__name__, "-", e)
