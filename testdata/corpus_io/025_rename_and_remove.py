import os
from pathlib import Path

Path("notes/ideas.txt").rename("notes/ideas_2026.txt")
os.remove("reports/2025.txt")
print(sorted(os.listdir("notes")), os.listdir("reports"))
os.rmdir("reports")
print(os.path.exists("reports"))
