import zipfile

with zipfile.ZipFile("reports/data.zip", "w") as z:
    z.write("data/sales.csv")
    z.write("data/users.json")
    z.writestr("README.txt", "two files")
with zipfile.ZipFile("reports/data.zip") as z:
    print(sorted(z.namelist()))
    print(z.read("README.txt").decode())
    print(len(z.read("data/sales.csv").splitlines()))
