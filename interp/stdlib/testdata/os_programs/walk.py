import os
for root, dirs, files in os.walk('.'):
    dirs.sort()
    print(root, dirs, sorted(files))
print('---')
for root, dirs, files in os.walk('src'):
    dirs[:] = [d for d in dirs if not d.startswith('.')]
    dirs.sort()
    print(root, dirs, sorted(files))
print('---')
print(sorted((r, sorted(d), sorted(f)) for r, d, f in os.walk('src', topdown=False)))
print(list(os.walk('missing')))
errs = []
print(list(os.walk('missing', onerror=errs.append)), [type(e).__name__ for e in errs])
print(list(os.walk('a.txt')))
n = 0
for root, dirs, files in os.walk('.', followlinks=True):
    n += len(files)
print(n)
