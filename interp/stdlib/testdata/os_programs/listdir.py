import os
print(sorted(os.listdir()))
print(sorted(os.listdir('.')), sorted(os.listdir(b'src')))
print(sorted(os.listdir('src/pkg')))
for bad in ['nope', 'a.txt']:
    try:
        os.listdir(bad)
    except OSError as e:
        print(type(e).__name__, e.errno, e.filename, e)
