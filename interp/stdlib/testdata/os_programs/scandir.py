import os
with os.scandir('src') as it:
    entries = sorted(it, key=lambda e: e.name)
for e in entries:
    print(e.name, e.path, e.is_file(), e.is_dir(), e.is_symlink(), repr(e))
print(sorted((e.name, e.is_dir(), e.is_dir(follow_symlinks=False), e.is_symlink()) for e in os.scandir()))
st = [e for e in os.scandir('.') if e.name == 'a.txt'][0].stat()
print(st.st_size, st.st_mode & 0o170000 == 0o100000, os.fspath([e for e in os.scandir('docs')][0]).startswith('docs/'))
it = os.scandir('docs')
print(type(it).__name__, next(it).name in ('guide.md', 'empty'))
it.close()
print(list(it))
