import shutil, os
print(shutil.copy('a.txt', 'docs'))
print(shutil.copy('a.txt', 'a2.txt'))
print(shutil.copy2('a.txt', 'a3.txt'), shutil.copyfile('a.txt', 'a4.txt'))
try:
    shutil.copyfile('a.txt', 'docs')
except IsADirectoryError as e:
    print(type(e).__name__)
print(shutil.copytree('src', 'src2'))
print(sorted(os.listdir('src2')))
try:
    shutil.copytree('src', 'src2')
except FileExistsError as e:
    print(type(e).__name__)
print(shutil.copytree('src', 'src2', dirs_exist_ok=True))
print(shutil.move('a2.txt', 'docs'))
print(shutil.move('a3.txt', 'moved.txt'), os.path.exists('a3.txt'))
try:
    shutil.move('a4.txt', 'docs/a.txt')
    print('replaced', os.path.exists('a4.txt'))
except shutil.Error as e:
    print('Error', e)
shutil.rmtree('src2')
print(os.path.exists('src2'))
try:
    shutil.rmtree('src2')
except FileNotFoundError as e:
    print(e)
shutil.rmtree('src2', ignore_errors=True)
print(sorted(os.listdir('docs')))
