import os
import shutil

shutil.copy("data/sales.csv", "reports/sales_copy.csv")
shutil.copytree("src", "backup/src")
shutil.move("reports/2025.txt", "backup/2025.txt")
for root, dirs, files in os.walk("backup"):
    dirs.sort()
    print(root, sorted(files))
print(os.path.exists("reports/2025.txt"), os.path.getsize("reports/sales_copy.csv") == os.path.getsize("data/sales.csv"))
