import sys

values = [1e308, 1.7976931348623157e308, 2.2250738585072014e-308, 5e-324]
for v in values:
    print(f"{v!r:>25} finite={v <= sys.float_info.max} normal={v >= sys.float_info.min}")
print(sys.float_info.max * 2, -sys.float_info.max * 2)
print(sys.float_info.mant_dig, sys.float_info.max_exp, sys.float_info.radix)
print(round(sys.float_info.epsilon * 2 ** 52, 6))

big = sys.maxsize
print(big, big.bit_length(), big + 1, (big + 1) // 2 == 2 ** 62, -big - 1)
print(len(str(sys.maxsize)), hex(sys.maxsize))
print(sys.int_info.bits_per_digit, sys.int_info.default_max_str_digits)


def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError:
        return sys.float_info.max if a > 0 else -sys.float_info.max


print(safe_div(1, 0), safe_div(-1, 0), safe_div(6, 3))
print(min([sys.maxsize, 10 ** 20, -3]), max(float("-inf"), -sys.float_info.max))
