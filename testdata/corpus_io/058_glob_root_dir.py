import glob

print(sorted(glob.glob("*.csv", root_dir="data")))
print(sorted(glob.glob("**/*.py", root_dir="src", recursive=True)))
print(sorted(glob.glob("notes/*")))
