def gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def lcm(a: int, b: int) -> int:
    return abs(a * b) // gcd(a, b) if a and b else 0


def gcd_list(nums):
    result = 0
    for n in nums:
        result = gcd(result, n)
    return result


def lcm_list(nums):
    result = 1
    for n in nums:
        result = lcm(result, n)
    return result


assert gcd(12, 18) == 6 and gcd(17, 5) == 1 and gcd(0, 9) == 9
assert lcm(4, 6) == 12
print(gcd(1071, 462), lcm(21, 6), gcd(-48, 36))
print(gcd_list([84, 126, 210]), lcm_list(range(1, 11)), lcm_list(range(1, 21)))
