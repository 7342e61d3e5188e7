import os.path
from os import path
import posixpath
print(path is os.path, posixpath is os.path)
for p in ['a.txt', 'src', 'link_to_src', 'link_a', 'dangling', 'nope', 'src/pkg/mod.py', 'a.txt/x']:
    print(p, os.path.exists(p), os.path.lexists(p), os.path.isfile(p), os.path.isdir(p), os.path.islink(p))
print(os.path.getsize('a.txt'), os.path.getsize('src/data.json'))
print(type(os.path.getmtime('a.txt')).__name__, os.path.getmtime('a.txt') > 1e9)
print(os.path.relpath(os.path.realpath('link_to_src'), os.getcwd()))
print(os.path.relpath(os.path.realpath('link_a'), os.getcwd()), os.path.relpath(os.path.abspath('x/../y')))
print(os.path.samefile('link_a', 'a.txt'), os.path.samefile('a.txt', 'b.md'))
try:
    os.path.getsize('nope')
except FileNotFoundError as e:
    print(e)
print(os.path.join('src', 'pkg', 'mod.py'), os.path.splitext('src/data.json'), os.path.basename('src/main.py'))
