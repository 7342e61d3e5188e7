raw = "3 14 15 92 65 35 89 79"
nums = list(map(int, raw.split()))
print(nums)
print(list(map(str, nums[:3])))
print(list(map(lambda n: n * n, nums[:4])))
print(list(filter(lambda n: n % 2 == 1, nums)))
print(list(filter(None, [0, 1, "", "a", None, [], [0], False])))
print(list(map(lambda a, b: a + b, [1, 2, 3], [10, 20, 30])))
print(list(map(str.upper, ["a", "é", "ß"])))
print(sum(map(len, ["alpha", "beta", "gamma"])))

def is_valid_word(w):
    return w.isalpha() and len(w) > 2

words = "an ok word list with 3 numbers and x-ray".split()
print(list(filter(is_valid_word, words)))
print(" ".join(map(str.capitalize, filter(is_valid_word, words))))
print(max(map(abs, [-7, 3, -2])))
