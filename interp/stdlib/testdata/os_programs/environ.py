import os
print(os.sep, repr(os.linesep), os.curdir, os.pardir, os.name, os.error is OSError)
print(isinstance(os.cpu_count(), int), os.fspath('x'), os.fspath(b'y'))
from pathlib import Path
print(os.fspath(Path('a/b')), isinstance(Path('a'), os.PathLike), isinstance('a', os.PathLike))
print(os.getcwd() == os.path.abspath('.'), type(os.getcwdb()).__name__)
print(os.path.expandvars('no vars'), os.environ.get('ONETOOL_SURELY_UNSET'), os.getenv('ONETOOL_SURELY_UNSET', 'dflt'))
print('ONETOOL_SURELY_UNSET' in os.environ)
try:
    os.environ['ONETOOL_SURELY_UNSET']
except KeyError as e:
    print('KeyError', e)
