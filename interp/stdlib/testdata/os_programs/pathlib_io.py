from pathlib import Path
import os
p = Path('src')
print(p.exists(), p.is_dir(), p.is_file(), Path('nope').exists(), Path('link_a').is_symlink())
print(sorted(x.name for x in p.iterdir()))
print(sorted(str(x) for x in p.glob('*.py')))
print(sorted(str(x) for x in Path('.').rglob('*.py')))
print(sorted(str(x) for x in p.rglob('*')))
print(sorted(str(x) for x in Path('.').glob('**/')))
print(Path('a.txt').read_text(), Path('a.txt').read_bytes(), Path('a.txt').stat().st_size)
print(Path('new.txt').write_text('hello\n'), Path('new.txt').read_text())
print(Path('new.bin').write_bytes(b'\x00\x01'), Path('new.bin').read_bytes())
with Path('new.txt').open() as f:
    print(f.read())
Path('out').mkdir()
with (Path('out') / 'f.txt').open('w') as f:
    f.write('written')
print(Path('out/f.txt').read_text())
Path('deep/er/dir').mkdir(parents=True)
Path('deep/er/dir').mkdir(parents=True, exist_ok=True)
try:
    Path('deep').mkdir()
except FileExistsError as e:
    print(e)
Path('deep/t.txt').touch()
print(sorted(os.listdir('deep')))
q = Path('deep/t.txt').rename('deep/u.txt')
print(type(q).__name__, q, q.exists())
Path('deep/u.txt').unlink()
Path('deep/u.txt').unlink(missing_ok=True)
try:
    Path('deep/u.txt').unlink()
except FileNotFoundError as e:
    print(e)
Path('deep/er/dir').rmdir()
print(Path('link_a').resolve() == Path('a.txt').resolve(), Path('a.txt').resolve().relative_to(Path.cwd()))
print(Path('x').absolute() == Path.cwd() / 'x', Path('link_a').samefile('a.txt'), Path.cwd() == Path(os.getcwd()))
print(Path('src/main.py').stat().st_size, Path('link_a').lstat().st_size != Path('link_a').stat().st_size)
try:
    Path('nope.txt').read_text()
except FileNotFoundError as e:
    print(e)
