import os
os.makedirs('out/a/b')
os.makedirs('out/a/b', exist_ok=True)
try:
    os.makedirs('out/a')
except FileExistsError as e:
    print(e)
os.mkdir('out/c')
try:
    os.mkdir('out/x/y')
except FileNotFoundError as e:
    print(e)
print(sorted(os.listdir('out')))
os.rename('out/c', 'out/d')
print(sorted(os.listdir('out')))
try:
    os.rmdir('out/a')
except OSError as e:
    print(type(e).__name__, e.errno, e)
os.rmdir('out/a/b')
os.rmdir('out/a')
try:
    os.remove('out/d')
except OSError as e:
    print(type(e).__name__, e)
try:
    os.remove('out/nothing')
except OSError as e:
    print(type(e).__name__, e)
try:
    os.rmdir('a.txt')
except OSError as e:
    print(type(e).__name__, e)
os.replace('b.md', 'out/d/b2.md')
print(os.path.exists('b.md'), os.listdir('out/d'))
os.unlink('out/d/b2.md')
print(os.listdir('out/d'))
try:
    os.rename('nope', 'x')
except OSError as e:
    print(type(e).__name__, e)
