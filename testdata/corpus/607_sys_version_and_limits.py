import sys

if sys.version_info < (3, 8):
    print("too old")
else:
    print("python", "%d.%d" % sys.version_info[:2], sys.version_info >= (3, 11), sys.version_info.major)
major, minor, *_ = sys.version_info
print(major, minor, sys.version_info[0:2] == (3, 11), sys.version.startswith("3.11"))
print(sys.platform.startswith("linux"), sys.maxsize, sys.maxsize + 1 == 2 ** 63, sys.maxsize.bit_length())
print(sys.float_info.epsilon, sys.float_info.max, sys.float_info.dig)
print(1.0 + sys.float_info.epsilon > 1.0, 1.0 + sys.float_info.epsilon / 2 == 1.0)
print(sys.getrecursionlimit())
sys.setrecursionlimit(10000)
print(sys.getrecursionlimit())


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


print(depth(2000))
print(sys.byteorder, sys.maxunicode, chr(sys.maxunicode) == "\U0010ffff")
print(type(sys.argv).__name__, len(sys.argv) >= 1, isinstance(sys.path, list))
print("json" in sys.modules or True, sys.getdefaultencoding())
