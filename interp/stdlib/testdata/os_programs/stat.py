import os
s = os.stat('a.txt')
print(s.st_size, s[6], len(s))
print(type(s).__name__, s.st_mode & 0o170000 == 0o100000, os.stat('src').st_mode & 0o170000 == 0o040000)
print(os.lstat('link_a').st_mode & 0o170000 == 0o120000, os.stat('link_a').st_size)
print(isinstance(s.st_mtime, float), isinstance(s.st_mtime_ns, int), s.st_mtime_ns // 10**9 == s[8])
print(os.stat('a.txt').st_ino == os.stat('link_a').st_ino)
mode, ino, dev, nlink, uid, gid, size, at, mt, ct = s
print(size, nlink >= 1)
try:
    os.stat('nope/x')
except OSError as e:
    print(type(e).__name__, e)
